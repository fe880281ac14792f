#!/usr/bin/env node
// Processing benchmark: events/s through the forward step to a loopback downstream with W worker
// processes, and the lag from acknowledgement to forward. Self-contained: per worker count it
// creates a scratch database, starts the downstream, the service (ingest only) and the workers
// from dist/, checks every event was forwarded exactly once, stops everything and drops the database.
//   node bench/processing.mjs --events 20000 --workers 1,2 [--rates 200,500] [--rounds 2] [--json]
// See bench/README.md ("Processing").
import { fileURLToPath } from 'node:url';
import { createDatabase, dropDatabase, startNode, stopNode, startDownstream, cpuMeter, withClient, staleDist } from './procs.mjs';
import { numberList, parseOptions } from './options.mjs';
import { ingest, holdRows, listenersUp, untilSettled, statusCounts, openLoop, dist } from './processing-phases.mjs';
import { round, writeResults } from './report.mjs';
import { report } from './processing-report.mjs';

const DEFAULTS = { events: 20000, workers: '1,2', concurrency: 16, batch: 100, rates: '200,500', 'lag-seconds': 15, size: 1024, rounds: 1,
  'database-url': process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', timeout: 600 };
const SECRET = 'bench-forward-secret';

function parseArgs(argv) {
  const o = parseOptions(argv, DEFAULTS);
  o.workerCounts = numberList(o.workers); o.rateList = o.rates === 'none' ? [] : numberList(o.rates);
  for (const k of ['events', 'concurrency', 'batch', 'lag-seconds', 'size', 'rounds', 'timeout']) o[k] = Number(o[k]);
  for (const v of [...o.workerCounts, ...o.rateList, o.events, o.concurrency, o.batch, o['lag-seconds'], o.rounds, o.timeout]) {
    if (!(v > 0)) throw new Error(`bad number in options: ${v}`);
  }
  return o;
}

/** One worker count: throughput phase, then each lag rate, then the checks. Returns the figures. */
async function runOne(o, W, log) {
  const db = await createDatabase(o['database-url']);
  const ds = await startDownstream(SECRET);
  const env = { DATABASE_URL: db.url, WHATSAPP_APP_SECRET: '', WASENDER_WEBHOOK_SECRET: '' };
  const procs = [];
  const failures = [];
  const r = { workers: W, db: db.name };
  let stopping = false, died;
  const crashed = new Promise((_, reject) => { died = reject; });
  crashed.catch(() => {});
  const watch = (p) => { procs.push(p); p.exited.then((e) => stopping || (p.crashed = true, died(new Error(`${p.label} exited ${JSON.stringify(e)} mid-run:\n${p.tail.slice(-5).join('\n')}`)))); return p; };
  const within = (p, ms, what) => {
    let timer;
    const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: not finished after ${ms / 1000} s`)), ms); });
    return Promise.race([p, timeout, crashed]).finally(() => clearTimeout(timer));
  };
  try {
    const svc = watch(startNode('main.js', { ...env, PORT: '0', WORKER_ENABLED: 'false' }, /listening on port (\d+)/, 'service'));
    await svc.ready;
    const url = `http://127.0.0.1:${svc.match[1]}`;
    log(`W=${W}: database ${db.name}, service ${url} (pid ${svc.pid}), downstream ${ds.url} (pid ${ds.pid}); ingesting ${o.events} events`);
    const ing = await ingest(url, o.events, o.batch);
    if (!ing.check.pass) failures.push(`ingest: ${ing.check.detail}`);
    r.ingest = { seconds: ing.seconds, eventsPerSec: ing.eventsPerSec, requests: ing.requests };

    // Throughput: workers start against locked rows; the release is "workers ready".
    const gate = await withClient(db.url, async (c) => {
      const g = await holdRows(c);
      if (g.locked !== o.events) failures.push(`stored rows ${g.locked}, expected ${o.events}`);
      const wenv = { ...env, FORWARD_URL: ds.url, FORWARD_SECRET: SECRET, WORKER_CONCURRENCY: String(o.concurrency) };
      for (let i = 1; i <= W; i++) watch(startNode('worker-main.js', wenv, /worker process ready/, `worker ${i}`));
      await Promise.all(procs.slice(1).map((p) => p.ready));
      await listenersUp(o['database-url'], db.name, W);
      const meter = cpuMeter({ service: [svc.pid], workers: procs.slice(1).map((p) => p.pid), downstream: [ds.pid] });
      return { meter, readyAt: await g.release() };
    });
    log(`W=${W}: ${W} worker(s) ready, rows released; draining`);
    const done = await within(ds.call({ cmd: 'await', keys: o.events }), o.timeout * 1000, `W=${W} drain`);
    r.cpu = gate.meter();
    const settledAt = await untilSettled(db.url, 60_000);
    const { firstAt } = (await ds.call({ cmd: 'stats' })).stats;
    r.drain = {
      readyToLastS: round((done.at - gate.readyAt) / 1000, 2), firstToLastS: round((done.at - firstAt) / 1000, 2),
      eventsPerSec: round((o.events * 1000) / (done.at - gate.readyAt), 0), eventsPerSecFirstToLast: round((o.events * 1000) / (done.at - firstAt), 0),
      firstForwardAfterReadyMs: round(firstAt - gate.readyAt, 1), allProcessedInDbS: round((settledAt - gate.readyAt) / 1000, 2),
    };
    log(`W=${W}: drained ${o.events} in ${r.drain.readyToLastS} s = ${r.drain.eventsPerSec} events/s; cpu % ${JSON.stringify(r.cpu)}`);

    // Lag: open-loop single events at each rate, through the same service and workers.
    r.lag = [];
    let expected = o.events;
    for (const rate of o.rateList) {
      const meter = cpuMeter({ service: [svc.pid], workers: procs.slice(1).map((p) => p.pid), downstream: [ds.pid] });
      const recs = await openLoop(url, rate, o['lag-seconds'], o.size);
      const ok = recs.filter((x) => x.status === 200 && x.accepted === 1 && x.key);
      if (ok.length !== recs.length) failures.push(`lag ${rate}/s: ${recs.length - ok.length} of ${recs.length} requests not accepted (e.g. ${JSON.stringify(recs.find((x) => !ok.includes(x)))})`);
      expected += ok.length;
      await within(ds.call({ cmd: 'await', keys: expected }), o.timeout * 1000, `W=${W} lag ${rate}/s`);
      const cpu = meter();
      await untilSettled(db.url, 60_000);
      const arrivals = new Map((await ds.call({ cmd: 'stats' })).stats.arrivals);
      const lags = ok.map((x) => arrivals.get(x.key) - x.ack);
      r.lag.push({ rate, requests: recs.length, sendSeconds: round((recs.at(-1).due - recs[0].due) / 1000, 1), ackMs: dist(ok.map((x) => x.ack - x.due)),
        lagMs: dist(lags), negativeLags: lags.filter((l) => l < 0).length, cpu });
      log(`W=${W}: ${rate}/s: lag ${JSON.stringify(r.lag.at(-1).lagMs)} ms, ack ${JSON.stringify(r.lag.at(-1).ackMs)} ms`);
    }

    // Checks: exactly once, signatures, nothing left unfinished.
    const stats = (await ds.call({ cmd: 'stats' })).stats;
    const db2 = await statusCounts(db.url);
    const known = await withClient(db.url, async (c) => new Set((await c.query('SELECT message_id FROM messages')).rows.map((x) => x.message_id)));
    const unknown = stats.arrivals.filter(([k]) => !known.has(k)).length;
    r.checks = { expected, distinct: stats.distinct, forwards: stats.requests, keysMoreThanOnce: stats.keysArrivingMoreThanOnce, unknown,
      badSignature: stats.badSignature, badBody: stats.badBody, idMismatch: stats.idMismatch, statuses: db2 };
    if (stats.distinct !== expected || known.size !== expected) failures.push(`forwarded ${stats.distinct} distinct keys, stored ${known.size}, expected ${expected}`);
    if (stats.requests !== stats.distinct || stats.keysArrivingMoreThanOnce) failures.push(`${stats.requests - stats.distinct} extra forwards (${stats.keysArrivingMoreThanOnce} keys more than once)`);
    if (unknown) failures.push(`${unknown} forwarded keys are not stored events`);
    if (stats.badSignature || stats.badBody || stats.idMismatch) failures.push(`bad signatures ${stats.badSignature}, bad bodies ${stats.badBody}, id != Idempotency-Key ${stats.idMismatch}`);
    if (Object.keys(db2).some((s) => s !== 'processed')) failures.push(`rows not processed: ${JSON.stringify(db2)}`);
  } catch (err) {
    failures.push(`error: ${err.message}`);
  } finally {
    stopping = true;
    for (const p of procs.slice(1).concat(procs.slice(0, 1))) {
      const e = await stopNode(p);
      if (e.code !== 0 && !p.crashed) failures.push(`${p.label} (pid ${p.pid}) exited ${JSON.stringify(e)} on SIGTERM, expected code 0; last lines:\n${p.tail.slice(-5).join('\n')}`);
    }
    r.exitCodes = procs.map((p) => `${p.label}=${p.exit?.code}`).join(' ');
    await ds.stop();
    await dropDatabase(o['database-url'], db.name);
  }
  r.pass = failures.length === 0;
  r.failures = failures;
  return r;
}

async function main(argv) {
  let o;
  try { o = parseArgs(argv); } catch (err) {
    console.error(`processing: ${err.message}\nusage: node bench/processing.mjs --events 20000 --workers 1,2 [--concurrency 16] [--rates 200,500|none] [--lag-seconds 15] [--rounds 1] [--database-url URL] [--json]`);
    return 2;
  }
  const log = (s) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);
  const stale = staleDist();
  if (stale) log(`WARNING: ${stale} is newer than dist/main.js: the figures are for the last build (npm run build)`);
  const results = [];
  for (let round = 1; round <= o.rounds; round++) {
    for (const W of o.workerCounts) {
      log(`round ${round}/${o.rounds}, ${W} worker process(es)`);
      results.push({ round, ...(await runOne(o, W, log)) });
    }
  }
  report(results, o);
  if (o.json) console.log(`\nresults written to ${writeResults('processing', o, results)}`);
  return results.every((r) => r.pass) ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => { console.error(err); process.exitCode = 1; });
}
