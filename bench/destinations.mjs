#!/usr/bin/env node
// Destinations benchmark: one service from dist/ (WORKER_ENABLED=true, LOG_LEVEL=warn, no webhook
// secrets, a fresh scratch database per run) fanning single-message Meta deliveries out to loopback
// sinks (bench/destinations-sink.mjs), open loop at --rate for --duration, then waits for every
// delivery to finish. Two runs per round: `baseline` (only `healthy` configured) and `full`
// (healthy; slow: 200 ms, ordering conversation; flapping: 20 s up / 10 s 503, breaker 5 failures,
// 2 s probe, maxAttempts 20; limited: rateLimit 50/s burst 50), the same load. Per destination, from
// the database: deliveries finished, events/s end to end, lag p50/p95/p99/max, attempts, dead,
// breaker openings (destination_state polled), CPU per process; healthy's lag baseline vs full. Checks
// (exit 1): every event delivered exactly once to each destination its filter matches (Idempotency-Key
// per sink path), nothing dead, limited never above burst + perSecond in any 1 s window, slow never two
// of a conversation in flight and never sent after a later event of its conversation that was stored
// before it was sent (destinations-checks.mjs). Prints a markdown table; --json writes bench/results/.
//   node bench/destinations.mjs [--rate 200] [--duration 60] [--senders 200] [--limited-senders 100]
//     [--rounds 1] [--runs baseline,full] [--full healthy,slow,flapping,limited] [--drain-timeout 300]
//     [--slow-ms 200] [--flap-up 20] [--flap-down 10] [--flap-max-attempts 20] [--limit-rate 50]
//     [--limit-burst 50] [--db URL] [--json]
// --full narrows the full run (e.g. healthy,slow) to find which destination moves healthy's lag. Rounds
// alternate the order of the runs. Build first (npm run build); the environment passes through (e.g.
// WORKER_CONCURRENCY=256). ~3.5 min per round at the defaults (limited's backlog drains at 50/s).
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import pg from 'pg';
import { parseOptions } from './options.mjs';
import { cpuMeter, createDatabase, dropDatabase, staleDist, startNode, stopEverything, stopNode } from './procs.mjs';
import { probe, signer } from './load.mjs';
import { dist } from './processing-phases.mjs';
import { round, writeResults } from './report.mjs';
import { destinationsFile, freePort, openLoop, stableDist, startSink, untilDrained, untilReady, watchBreakers } from './destinations-phases.mjs';
import { check, measure } from './destinations-checks.mjs';
import { facts, markdown } from './destinations-report.mjs';

const DEFAULTS = { rate: '200', duration: '60', senders: '200', 'limited-senders': '100', rounds: '1', runs: 'baseline,full', 'drain-timeout': '300',
  full: 'healthy,slow,flapping,limited', 'slow-ms': '200', 'flap-up': '20', 'flap-down': '10', 'flap-max-attempts': '20', 'limit-rate': '50', 'limit-burst': '50',
  db: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' };
const USAGE = 'usage: node bench/destinations.mjs [--rate 200] [--duration 60] [--senders 200] [--limited-senders 100] [--rounds 1] [--runs baseline,full] [--full healthy,slow,flapping,limited] [--drain-timeout 300] [--db URL] [--json] (see the header)';
const CLEAN = { FORWARD_URL: undefined, FORWARD_SECRET: undefined, AUTO_REPLY_TEXT: undefined, WHATSAPP_APP_SECRET: undefined,
  WASENDER_WEBHOOK_SECRET: undefined, GENERIC_WEBHOOK_SECRET: undefined, INSPECTION_API_KEY: undefined, NODE_ENV: undefined };
const log = (s) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
let sink;

function options(argv) {
  const o = parseOptions(argv, DEFAULTS);
  const camel = (k) => k.replace(/-(\w)/g, (_, c) => c.toUpperCase());
  for (const k of Object.keys(DEFAULTS).filter((x) => !['runs', 'db', 'full'].includes(x))) {
    o[camel(k)] = Number(o[k]);
    if (!(o[camel(k)] > 0)) throw new Error(`--${k} must be a positive number`);
  }
  o.runList = String(o.runs).split(',');
  if (o.runList.some((r) => !['baseline', 'full'].includes(r))) throw new Error('--runs takes baseline and/or full');
  o.fullList = String(o.full).split(',');
  if (!o.fullList.includes('healthy') || o.fullList.some((d) => !['healthy', 'slow', 'flapping', 'limited'].includes(d))) throw new Error('--full: healthy plus any of slow, flapping, limited');
  return o;
}

function loadFigures(recs) {
  const ok = recs.filter((x) => x.status === 200 && x.accepted === 1 && x.key);
  const sendSeconds = (recs.at(-1).due - recs[0].due) / 1000;
  return { sent: recs.length, accepted: ok.length, notOk: recs.length - ok.length, sendSeconds: round(sendSeconds, 1), achievedRate: round(recs.length / sendSeconds, 0),
    ackMs: dist(ok.map((x) => x.ack - x.due)), sample: recs.find((x) => !ok.includes(x)) };
}

/** One run: its own database and service; returns the figures, checks and failures. */
async function runOne(o, kind, roundNo) {
  const which = kind === 'baseline' ? ['healthy'] : o.fullList;
  const r = { round: roundNo, kind, failures: [] };
  r.distBuiltAt = await stableDist(log); // another build (e.g. npm test) may be rewriting dist/ right now
  const db = await createDatabase(o.db);
  const { file, config } = destinationsFile(sink.base, which, o);
  const port = await freePort(), url = `http://127.0.0.1:${port}`;
  const env = { ...CLEAN, DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKER_ENABLED: 'true', DESTINATIONS_FILE: file };
  const proc = startNode('main.js', env, /listening on/, `${kind} service`);
  const client = new pg.Client({ connectionString: db.url });
  client.on('error', () => {});
  let stopWatch = null;
  try {
    await untilReady(url, proc);
    await probe(url, '/webhook', signer(undefined));
    await client.connect();
    log(`round ${roundNo} ${kind}: service ${url} (pid ${proc.pid}), database ${db.name}, destinations ${which.join(', ')}; ${o.rate}/s for ${o.duration} s`);
    stopWatch = watchBreakers(client);
    const { at: sinkStartedAt } = await sink.call({ cmd: 'start' });
    const meter = cpuMeter({ service: [proc.pid], sink: [sink.pid] });
    const load = await openLoop(url, o.rate, o.duration, o.senders);
    r.cpuLoad = meter();
    r.load = loadFigures(load.recs);
    if (r.load.notOk) r.failures.push(`load: ${r.load.notOk} of ${r.load.sent} requests not answered 200 with one event accepted, e.g. ${JSON.stringify(r.load.sample)}`);
    log(`  load done: ${r.load.sent} sent, ack p50 ${r.load.ackMs.p50} ms p99 ${r.load.ackMs.p99} ms; waiting for the backlog`);
    r.drain = await untilDrained(client, load.endedAt, o.drainTimeout, proc);
    r.drain.drainedAfterS = r.drain.drainedAfterS === null ? null : round(r.drain.drainedAfterS, 2);
    r.cpuLoadAndDrain = meter();
    if (r.drain.drainedAfterS === null) r.failures.push(`not drained ${o.drainTimeout} s after the load: ${JSON.stringify(r.drain.left)}`);
    log(`  drained after ${r.drain.drainedAfterS} s; CPU % during the load ${JSON.stringify(r.cpuLoad)}`);
    r.breakers = await stopWatch(); stopWatch = null;
    r.overview = await fetch(`${url}/destinations`).then((x) => x.json(), (e) => ({ error: e.message }));
    const st = await sink.call({ cmd: 'stats' });
    r.destinations = await measure(client, load.endedAt);
    r.checks = await check(client, st, config, o, sinkStartedAt, new Map(load.recs.filter((x) => x.key).map((x) => [x.key, x.ack])));
    r.failures.push(...r.checks.failures);
    const stored = (await client.query('SELECT count(*)::int AS n FROM messages')).rows[0].n;
    if (stored !== r.load.accepted) r.failures.push(`${stored} events stored, ${r.load.accepted} accepted`);
  } catch (err) {
    r.failures.push(`error: ${err.message}`);
  } finally {
    if (stopWatch) await stopWatch().catch(() => {});
    await client.end().catch(() => {});
    const e = await stopNode(proc);
    r.exit = e.code;
    if (e.code !== 0) r.failures.push(`service (pid ${proc.pid}) exited ${JSON.stringify(e)} on SIGTERM, expected 0; last lines:\n${proc.tail.slice(-5).join('\n')}`);
    await dropDatabase(o.db, db.name);
    rmSync(dirname(file), { recursive: true, force: true });
  }
  log(`  round ${roundNo} ${kind}: ${r.failures.length ? `FAIL\n    ${r.failures.join('\n    ')}` : 'PASS'}`);
  return r;
}

async function main(argv) {
  let o;
  try { o = options(argv); } catch (err) { console.error(`destinations: ${err.message}\n${USAGE}`); return 2; }
  const stale = staleDist();
  if (stale) { console.error(`destinations: ${stale} is newer than dist/main.js; build first (npm run build)`); return 2; }
  const m = await facts(o.db);
  log(`destinations: ${m.command}; commit ${m.commit}; load average ${m.loadavg.join(' ')}`);
  sink = await startSink({ SLOW_MS: String(o.slowMs), FLAP_UP_S: String(o.flapUp), FLAP_DOWN_S: String(o.flapDown) });
  const runs = [];
  try {
    for (let k = 1; k <= o.rounds; k++) {
      const order = k % 2 ? o.runList : [...o.runList].reverse(); // alternate, so drift over the session does not favour one run
      for (const kind of order) runs.push(await runOne(o, kind, k));
    }
  } finally {
    await sink.stop();
  }
  const failures = runs.flatMap((r) => r.failures.map((x) => `round ${r.round} ${r.kind}: ${x}`));
  console.log(`\n${markdown({ facts: m, o, runs, failures })}`);
  if (o.json) {
    const opts = Object.fromEntries(Object.entries(o).filter(([k]) => k === 'runList' || k in DEFAULTS));
    console.log(`\nresults written to ${writeResults('destinations', opts, { facts: m, runs, failures }, (stamp) => `destinations-${stamp}`)}`);
  }
  return failures.length ? 1 : 0;
}

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (stopping) process.exit(130);
    stopping = true;
    log(`${sig}: stopping everything this run started`);
    Promise.all([stopEverything(), sink?.stop()]).finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  });
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, async (err) => {
  if (stopping) return;
  console.error(`destinations: ${err.stack ?? err}`);
  await Promise.all([stopEverything(), sink?.stop()]);
  process.exitCode = 1;
});
