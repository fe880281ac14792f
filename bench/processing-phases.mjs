// The two phases of bench/processing.mjs: batched ingest + gated drain (throughput), and an
// open-loop stream of single-event requests (lag from acknowledgement to forward).
import http from 'node:http';
import { metaBatch, metaText, runPrefix, template } from './workloads.mjs';
import { runPhase, signer } from './load.mjs';
import { pct, round, summarize } from './report.mjs';
import { withClient } from './procs.mjs';

export const nowMs = () => Number(process.hrtime.bigint()) / 1e6; // CLOCK_MONOTONIC, shared with the downstream
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const seq = (n) => String(n).padStart(8, '0');
const sorted = (a) => Float64Array.from(a).sort();
export const dist = (a) => { const s = sorted(a); return { p50: round(pct(s, 50), 1), p95: round(pct(s, 95), 1), p99: round(pct(s, 99), 1), max: round(s[s.length - 1], 1) }; };

/** POSTs `n` unique events as Meta batches of `batch` updates (99 % messages, 1 % statuses), 4 connections. */
export async function ingest(url, n, batch) {
  const prefix = runPrefix(), ts = String(Math.floor(Date.now() / 1000)), total = Math.ceil(n / batch);
  let i = 0;
  const src = {
    total,
    get exhausted() { return i >= total; },
    next() { const k = i++; const size = Math.min(batch, n - k * batch); return { events: size, body: metaBatch(prefix, k, size, ts) }; },
  };
  const t = await runPhase({ url, path: '/webhook', src, connections: 4, duration: Infinity, timeout: 60, sign: signer(undefined) });
  return summarize(t, (x) => ({ ok: x.accepted === n && x.duplicates === 0, detail: `accepted ${x.accepted} / ${n} events sent in ${x.sent} requests` }));
}

/**
 * Holds every stored row locked (SELECT … FOR UPDATE in an open transaction): the workers'
 * lease (FOR UPDATE SKIP LOCKED) finds nothing until `release()` commits together with a
 * NOTIFY on the inbox channel, which wakes every idle worker at once. `release()` returns the
 * moment it let go (ms, nowMs clock). Nothing in the rows changes.
 */
export async function holdRows(pgClient) {
  await pgClient.query('BEGIN');
  const { rows } = await pgClient.query('SELECT count(*)::int AS n FROM (SELECT 1 FROM messages FOR UPDATE) AS l');
  return {
    locked: rows[0].n,
    async release() {
      const at = nowMs();
      await pgClient.query('NOTIFY messages_inbox');
      await pgClient.query('COMMIT');
      return at;
    },
  };
}

/** Waits until `n` worker listeners have issued LISTEN (else the first wake-up could be missed until the next poll). */
export async function listenersUp(dbUrl, dbName, n, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await withClient(dbUrl, (c) => c.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE '%worker listener' AND query ILIKE 'LISTEN%'", [dbName]));
    if (rows[0].n >= n) return;
    if (Date.now() > until) throw new Error(`only ${rows[0].n} of ${n} worker listeners are up after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Status counts of the messages table ({processed: n, …}). */
export const statusCounts = (dbUrl) => withClient(dbUrl, async (c) =>
  Object.fromEntries((await c.query('SELECT status::text, count(*)::int AS n FROM messages GROUP BY 1')).rows.map((r) => [r.status, r.n])));

/** Polls until no row is received/processing/failed; returns the time (nowMs) or throws after timeoutMs. */
export async function untilSettled(dbUrl, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const c = await statusCounts(dbUrl);
    if (!c.received && !c.processing && !c.failed) return nowMs();
    if (Date.now() > until) throw new Error(`rows still unfinished after ${timeoutMs} ms: ${JSON.stringify(c)}`);
    await sleep(50);
  }
}

/**
 * Open loop: request k is due at t0 + k/rate whatever happened to the earlier ones (its own
 * keep-alive connection when all others are busy), single-event Meta bodies of ~`size` bytes.
 * Ack latency is measured from the due time (no coordinated omission). Returns one record per
 * request: { due, ack, status, key, accepted, error }.
 */
export async function openLoop(url, rate, seconds, size) {
  const prefix = runPrefix(), ts = String(Math.floor(Date.now() / 1000));
  const body = template((id, pad) => metaText(id, pad, ts), size);
  return sendOpenLoop(url, rate, seconds, (k) => body(`wamid.BENCH_${prefix}_L${seq(k)}`));
}

/** The open loop itself: request k (body `bodyOf(k)`, JSON text) is due at t0 + k/rate. */
export async function sendOpenLoop(url, rate, seconds, bodyOf) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const total = Math.round(rate * seconds), recs = [];
  const endpoint = new URL('/webhook', url);
  const t0 = nowMs() + 20;
  await new Promise((resolve) => {
    let i = 0, done = 0;
    const finish = () => { if (++done === total) resolve(); };
    const send = (k) => {
      const b = bodyOf(k);
      const rec = { due: t0 + (k * 1000) / rate, ack: null, status: 0, key: null, accepted: 0, error: null };
      recs.push(rec);
      const req = http.request(endpoint, { method: 'POST', agent, timeout: 30_000, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(b) } }, (res) => {
        rec.ack = nowMs(); // the 200 arrived (status line and headers; the small JSON follows in the same packet)
        rec.status = res.statusCode;
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          try { const j = JSON.parse(Buffer.concat(chunks)); rec.key = j.events?.[0]?.id ?? null; rec.accepted = j.accepted; } catch { rec.error = 'answer not JSON'; }
          finish();
        });
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (e) => { rec.error = e.code ?? e.message; finish(); });
      req.end(b);
    };
    const tick = () => {
      const now = nowMs();
      while (i < total && t0 + (i * 1000) / rate <= now) send(i++);
      if (i < total) setTimeout(tick, 1);
    };
    tick();
  });
  agent.destroy();
  return recs;
}
