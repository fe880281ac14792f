#!/usr/bin/env node
// Cost per event that machine noise does not change: WAL bytes and row versions written per event,
// for the acknowledgement alone and for acknowledgement + processing (the in-process worker forwarding
// every event to a loopback sink). Self-contained: a scratch database and the service from dist/.
//   node bench/wal-cost.mjs [--events 10000] [--connections 32] [--json]
// WAL is read with pg_current_wal_lsn() before and after (cluster-wide: run it on a quiet server);
// row versions from pg_stat_user_tables (inserts + updates + deletes, per table), read after the
// service has stopped (its backends report statistics when they disconnect).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseOptions } from './options.mjs';
import { createDatabase, dropDatabase, startDownstream, startNode, stopNode, staleDist, withClient } from './procs.mjs';
import { round, table, writeResults } from './report.mjs';
import { metaText } from './workloads.mjs';

const post = (agent, port, body) => new Promise((resolve, reject) => {
  const req = http.request({ host: '127.0.0.1', port, path: '/webhook', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
    res.resume();
    res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`answered ${res.statusCode}`))));
  });
  req.on('error', reject);
  req.end(body);
});

const snapshot = (url) => withClient(url, async (c) => {
  const [{ lsn }] = (await c.query('SELECT pg_current_wal_lsn()::text AS lsn')).rows;
  // Full-page images (cluster-wide): many of them mean a checkpoint began during the measurement.
  const [{ fpi }] = (await c.query('SELECT wal_fpi::float8 AS fpi FROM pg_stat_wal')).rows;
  const tables = (await c.query("SELECT relname, n_tup_ins + n_tup_upd + n_tup_del AS versions, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname IN ('messages','message_steps','deliveries')")).rows;
  return { lsn, fpi, tables: Object.fromEntries(tables.map((t) => [t.relname, { versions: Number(t.versions), hot: Number(t.hot) }])) };
});

async function measure(o, label, env, processed) {
  const { events: EVENTS, connections: CONNECTIONS } = o;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const db = await createDatabase(o.db);
  const sink = processed ? await startDownstream('wal-cost-secret') : null;
  const service = startNode('main.js', { PORT: '0', DATABASE_URL: db.url, ...env, ...(sink ? { FORWARD_URL: sink.url, FORWARD_SECRET: 'wal-cost-secret' } : {}) }, /listening on port (\d+)/, label);
  try {
    await service.ready;
    const port = Number(service.match[1]);
    const prefix = randomBytes(4).toString('hex');
    const ts = String(Math.floor(Date.now() / 1000));
    await withClient(db.url, (c) => c.query('SELECT pg_stat_clear_snapshot()'));
    const before = await snapshot(db.url);
    let next = 0;
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (next < EVENTS) await post(agent, port, JSON.stringify(metaText(`wamid.WAL.${prefix}.${next++}`, '', ts)));
    }));
    if (processed) {
      const until = Date.now() + (o.drainTimeoutMs ?? Infinity);
      await withClient(db.url, async (c) => {
        for (;;) {
          const [{ n }] = (await c.query("SELECT count(*)::int AS n FROM messages WHERE status <> 'processed'")).rows;
          if (n === 0) return;
          if (Date.now() > until) throw new Error(`${label}: ${n} events still not processed after ${o.drainTimeoutMs / 1000} s`);
          await new Promise((r) => setTimeout(r, 200));
        }
      });
    }
    // A backend reports its table statistics when idle for a while or when it disconnects: stop first.
    await stopNode(service);
    await new Promise((r) => setTimeout(r, 500));
    const after = await snapshot(db.url);
    const walBytes = await withClient(db.url, async (c) => Number((await c.query('SELECT pg_wal_lsn_diff($1, $2) AS d', [after.lsn, before.lsn])).rows[0].d));
    const versions = Object.fromEntries(Object.keys(after.tables).map((t) => [t, (after.tables[t].versions - (before.tables[t]?.versions ?? 0)) / EVENTS]));
    return { label, walBytesPerEvent: round(walBytes / EVENTS, 0), rowVersionsPerEvent: versions, fullPageImagesPerEvent: round((after.fpi - before.fpi) / EVENTS, 3) };
  } finally {
    agent.destroy();
    await stopNode(service);
    await sink?.stop();
    await dropDatabase(o.db, db.name);
  }
}

/**
 * The measurement: ack only, then ack + forward, each on its own scratch database next to the
 * one `db` (an admin URL) names. `drainTimeoutMs` (default: none) bounds the wait for processing.
 * Returns [{ label, walBytesPerEvent, rowVersionsPerEvent: { table: n }, fullPageImagesPerEvent }] in that order.
 */
export async function measureWalCost({ events = 10000, connections = 32, db, drainTimeoutMs } = {}) {
  const o = { events, connections, db, drainTimeoutMs };
  return [
    await measure(o, 'ack only (WORKER_ENABLED=false)', { WORKER_ENABLED: 'false', LOG_LEVEL: 'info' }, false),
    await measure(o, 'ack + forward (default, FORWARD_URL set)', { LOG_LEVEL: 'info' }, true),
  ];
}

async function main() {
  const o = parseOptions(process.argv.slice(2), { events: '10000', connections: '32', db: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' });
  const stale = staleDist();
  if (stale) console.error(`warning: ${stale} is newer than dist/main.js: run npm run build`);
  const results = await measureWalCost({ events: Number(o.events), connections: Number(o.connections), db: o.db });
  console.log(table(['configuration', 'WAL bytes/event', 'messages row versions/event', 'message_steps', 'deliveries'],
    results.map((r) => [r.label, r.walBytesPerEvent, round(r.rowVersionsPerEvent.messages ?? 0, 2), round(r.rowVersionsPerEvent.message_steps ?? 0, 2), round(r.rowVersionsPerEvent.deliveries ?? 0, 2)])));
  if (o.json) console.log(`results written to ${writeResults('wal-cost', o, results)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => { console.error(error); process.exitCode = 1; });
}
