#!/usr/bin/env node
// The speed table of issue 11 in one command: our service in three configurations (default,
// forward, acks-only; each from dist/ on its own scratch database) against the bare-pg reference,
// workloads unique and storm with the backlog each run leaves, the 1,000-update batch, and the WAL
// cost per event. Prints a markdown table ready to paste into bench/README.md.
//   node bench/scoreboard.mjs [--duration 20] [--rounds 2] [--connections 32] [--bare-pg URL] [--db URL] [--skip wal,batch] [--drain-timeout 120] [--json]
// Needs the bare-pg reference running (see bench/README.md); starts and stops everything else.
import { parseOptions } from './options.mjs';
import { parseArgs, runWorkload } from './run.mjs';
import { probe, signer } from './load.mjs';
import { printRuns, runRounds } from './compare.mjs';
import { staleDist, stopEverything } from './procs.mjs';
import { writeResults } from './report.mjs';
import { measureWalCost } from './wal-cost.mjs';
import { deadCount, exitReason, forwardCheck, settle, startServices, stopServices } from './scoreboard-services.mjs';
import { distBuiltAt, facts, markdown } from './scoreboard-report.mjs';

const DEFAULTS = { duration: '20', rounds: '2', connections: '32', 'bare-pg': 'http://127.0.0.1:3102', 'drain-timeout': '120',
  db: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres', skip: '' };
const WORKLOADS = ['unique', 'storm'];
const WARMUP_S = 5, BATCH_S = 15, WAL_EVENTS = 10000;
const START_REFERENCE = 'cp -r /work/shared/reference /tmp/reference && cd /tmp/reference && npm install && ./setup-db.sh && ./start.sh b';
const USAGE = 'usage: node bench/scoreboard.mjs [--duration 20] [--rounds 2] [--connections 32] [--bare-pg URL] [--db URL] [--skip wal,batch] [--drain-timeout 120] [--json]';
const log = (s) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

function options(argv) {
  const o = parseOptions(argv, DEFAULTS, ['json', 'help']);
  for (const k of ['duration', 'rounds', 'connections', 'drain-timeout']) {
    o[k] = Number(o[k]);
    if (!(o[k] > 0) || (k !== 'duration' && !Number.isInteger(o[k]))) throw new Error(`--${k} must be a positive ${k === 'duration' ? 'number' : 'integer'}`);
  }
  o.skip = String(o.skip === true ? '' : o.skip).split(',').filter(Boolean);
  for (const s of o.skip) if (!['wal', 'batch'].includes(s)) throw new Error(`--skip takes wal and/or batch, not ${s}`);
  new URL(o['bare-pg']); new URL(o.db); // throw on a malformed URL
  o.walEvents = WAL_EVENTS;
  // The load options of run.mjs (timeouts, body size, storm ids...), with ours on top; nothing is signed.
  o.load = { ...parseArgs(['--duration', String(o.duration), '--connections', String(o.connections)]), secret: undefined };
  return o;
}

/** Unique and storm against every target; the backlog of default and forward after each run. */
async function measureTargets(o, services, bare) {
  const targets = [...services, bare];
  const failures = [];
  for (const t of targets) {
    log(`warm-up: unique @ ${t.name}, ${Math.min(WARMUP_S, o.duration)} s (not reported)`);
    const w = await runWorkload(t.url, 'unique', { ...o.load, duration: Math.min(WARMUP_S, o.duration) }, t.info);
    if (!w.stats.check.pass) failures.push(`warm-up of ${t.name}: ${w.stats.check.detail}`);
    const b = t.drains && await settle(t, new Date(), o['drain-timeout'] * 1000);
    if (b && b.drainedAfterS === null) failures.push(`warm-up of ${t.name}: ${b.leftAfterTimeout} events still unprocessed ${o['drain-timeout']} s after it`);
  }
  const after = async (t, res) => {
    const endedAt = new Date();
    if (t.proc?.exit) throw new Error(exitReason(t));
    if (!t.drains) return;
    res.backlog = await settle(t, endedAt, o['drain-timeout'] * 1000);
    const b = res.backlog;
    log(`  ${t.name}: ${b.leftAtEnd} events unfinished at the end, oldest ${b.oldestAtEndS} s; ${b.drainedAfterS === null ? `NOT drained: ${b.leftAfterTimeout} left after ${o['drain-timeout']} s` : `drained after ${b.drainedAfterS} s`}`);
    if (b.drainedAfterS === null) failures.push(`${t.name} ${res.workload} #${res.round}: ${b.leftAfterTimeout} events still unprocessed ${o['drain-timeout']} s after the load ended`);
  };
  const results = await runRounds(targets, WORKLOADS, o.load, o.rounds, after);
  for (const x of results) if (!x.stats.check.pass) failures.push(`${x.target} ${x.workload} #${x.round}: ${x.stats.check.detail}`);
  return { targets, results, failures };
}

async function main(argv) {
  let o;
  try { o = options(argv); } catch (err) { console.error(`scoreboard: ${err.message}\n${USAGE}`); return 2; }
  if (o.help) { console.log(`${USAGE}\nSee bench/README.md.`); return 0; }
  const stale = staleDist();
  if (stale) { console.error(`scoreboard: ${stale} is newer than dist/main.js: the figures would not be those of the code; build first (npm run build)`); return 2; }
  const bare = { name: 'bare-pg', url: o['bare-pg'] };
  try {
    bare.info = await probe(bare.url, '/webhook', signer(undefined));
  } catch (err) {
    console.error(`scoreboard: the bare-pg reference does not answer at ${bare.url} (${err.message})\nstart it with:\n  ${START_REFERENCE}\nor pass --bare-pg URL`);
    return 2;
  }
  const r = { o, failures: [] };
  try {
    r.facts = await facts(o.db);
  } catch (err) {
    console.error(`scoreboard: PostgreSQL does not answer at ${o.db} (${err.message}); pass --db URL (an admin URL: scratch databases are created next to it)`);
    return 2;
  }
  log(`scoreboard: ${r.facts.command}; commit ${r.facts.commit}`);

  const svc = await startServices(o.db, log);
  let measured;
  try {
    measured = await measureTargets(o, svc.services, bare);
    r.results = measured.results; r.failures.push(...measured.failures);
    const fwd = svc.services.find((s) => s.name === 'forward');
    const fc = await forwardCheck(fwd, svc.sink);
    log(`forward: ${fc.detail}`);
    if (!fc.ok) r.failures.push(`forward exactly once: ${fc.detail}`);
    for (const s of svc.services.filter((x) => x.drains)) {
      const dead = await deadCount(s);
      if (dead) r.failures.push(`${s.name}: ${dead} dead events (processing failed for good)`);
    }
    if (!o.skip.includes('batch')) {
      const def = svc.services.find((s) => s.name === 'default');
      log(`batch @ default, ${BATCH_S} s`);
      r.batch = { ...(await runWorkload(def.url, 'batch', { ...o.load, duration: BATCH_S, connections: undefined }, def.info)), duration: BATCH_S };
      if (!r.batch.stats.check.pass) r.failures.push(`batch: ${r.batch.stats.check.detail}`);
    }
  } finally {
    // The batch leaves a backlog minutes long: stop the services before the WAL measurement (cluster-wide WAL).
    log('stopping the services');
    r.failures.push(...await stopServices(svc, o.db));
  }
  if (!o.skip.includes('wal')) {
    log(`WAL: ${WAL_EVENTS} events, ack only then ack + forward`);
    try {
      r.wal = await measureWalCost({ events: WAL_EVENTS, connections: 32, db: o.db, drainTimeoutMs: o['drain-timeout'] * 1000 });
    } catch (err) {
      r.failures.push(`WAL measurement: ${err.message}`);
    }
  }

  // Services started from a later build (the WAL measurement's) would not measure the same code.
  if (distBuiltAt() !== r.facts.distBuiltAt) r.failures.push('dist/main.js was rebuilt during this run: the figures mix two builds; run again');
  printRuns(r.results, measured.targets, WORKLOADS, o.rounds, o.duration);
  for (const x of r.results.filter((y) => y.backlog)) {
    const b = x.backlog;
    console.log(`backlog ${x.target} ${x.workload} #${x.round}: ${b.leftAtEnd} events unfinished when the load ended, the oldest ${b.oldestAtEndS} s old; ${b.drainedAfterS === null ? `NOT drained, ${b.leftAfterTimeout} left after ${o['drain-timeout']} s` : `drained ${b.drainedAfterS} s after the end`}`);
  }
  if (r.batch?.stats) printRuns([{ ...r.batch, target: 'default', round: 1 }], [{ name: 'default' }], ['batch'], 1, BATCH_S);
  if (r.failures.length) console.log(`\nFAILED:\n  ${r.failures.join('\n  ')}`);
  console.log(`\n${markdown(r)}`);
  if (o.json) {
    const { load: _load, ...opts } = o;
    console.log(`\nresults written to ${writeResults('scoreboard', opts, { facts: r.facts, runs: r.results, batch: r.batch, wal: r.wal, failures: r.failures }, (stamp) => `scoreboard-${stamp}`)}`);
  }
  return r.failures.length ? 1 : 0;
}

// Ctrl-C (or SIGTERM): stop whatever is running, whichever module started it, and drop the scratch databases.
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (stopping) process.exit(130);
    stopping = true;
    log(`${sig}: stopping everything this run started (again to exit at once)`);
    stopEverything().finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  });
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  async (err) => {
    if (stopping) return; // interrupted: what failed is the signal handler's doing
    console.error(`scoreboard: ${err.stack ?? err}`);
    await stopEverything();
    process.exitCode = 1;
  },
);
