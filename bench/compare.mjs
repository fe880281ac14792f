#!/usr/bin/env node
// Runs the same workloads against several targets in sequence and prints them side by side,
// with the ratio subject/baseline (default ours/bare-pg) for throughput and p99.
//   node bench/compare.mjs --targets ours=http://127.0.0.1:3000,bare-pg=http://127.0.0.1:3102,null=http://127.0.0.1:3100 \
//        --workload unique,duplicates,storm,flat --duration 20 [--rounds 3] [--json]
// (the same as `node bench/run.mjs --targets ...`)
import { fileURLToPath } from 'node:url';
import { parseArgs, runWorkload } from './run.mjs';
import { probe, signer } from './load.mjs';
import { table, STAT_HEADER, statCells, details, writeResults, round } from './report.mjs';

function parseTargets(spec) {
  const list = String(spec).split(',').filter(Boolean).map((part, i) => {
    const eq = part.indexOf('=');
    return eq > 0 ? { name: part.slice(0, eq), url: part.slice(eq + 1) } : { name: `t${i + 1}`, url: part };
  });
  for (const t of list) new URL(t.url); // throws on a malformed URL
  if (new Set(list.map((t) => t.name)).size !== list.length) throw new Error('target names must be unique');
  return list;
}

export const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null;
};
const ratio = (a, b) => (a !== null && b ? `${round(a / b, 2)}x` : '-');

/**
 * Runs each workload against every target `rounds` times, rotating the order each round so no
 * target always runs first (cold caches, thermal drift). `after(target, result)` runs after each
 * measured run (e.g. to wait for a backlog). Returns [{ workload, target, round, ...runWorkload result }].
 */
export async function runRounds(targets, workloads, o, rounds, after = async () => {}) {
  const results = [];
  for (const w of workloads) {
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < targets.length; k++) {
        const t = targets[(k + r) % targets.length];
        const res = await runWorkload(t.url, w, o, t.info);
        results.push({ ...res, target: t.name, round: r + 1 });
        await after(t, results.at(-1));
      }
    }
  }
  return results;
}

/** Medians over the rounds of one workload and target. */
export function aggregate(results, w, name) {
  const rs = results.filter((x) => x.workload === w && x.target === name);
  if (rs.some((x) => x.skipped)) return { skipped: rs[0].skipped };
  return {
    runs: rs.map((x) => x.stats),
    reqPerSec: median(rs.map((x) => x.stats.reqPerSec)),
    eventsPerSec: median(rs.map((x) => x.stats.eventsPerSec)),
    p99: median(rs.map((x) => x.stats.latencyMs.p99)),
    pass: rs.every((x) => x.stats.check.pass),
  };
}

/** Per workload: a table of every run (target, round) and the detail lines under it. */
export function printRuns(results, targets, workloads, rounds, duration) {
  for (const w of workloads) {
    console.log(`\n== ${w} (${rounds > 1 ? `${rounds} rounds, ` : ''}${duration} s max per run) ==`);
    const byTarget = targets.flatMap((t) => results.filter((y) => y.workload === w && y.target === t.name).sort((a, b) => a.round - b.round));
    const label = (x) => `${x.target}${rounds > 1 ? ` #${x.round}` : ''}`;
    const rows = byTarget.filter((x) => x.stats).map((x) => [label(x), ...statCells(x.stats)]);
    if (rows.length) console.log(table(['target', ...STAT_HEADER], rows));
    for (const x of byTarget) if (x.stats) console.log(details(label(x), x.stats));
    for (const t of targets) {
      const skipped = byTarget.find((x) => x.target === t.name && x.skipped);
      if (skipped) console.log(`${t.name}: skipped - ${skipped.skipped}`);
    }
  }
}

export async function compare(o) {
  let targets;
  try {
    targets = parseTargets(o.targets);
  } catch (err) {
    console.error(`compare: bad --targets (${err.message}); expected name=url,name=url,...`);
    return 2;
  }
  const rounds = Number(o.rounds ?? 1);
  const subject = o.subject ?? targets[0].name;
  const baseline = o.baseline ?? (targets.some((t) => t.name === 'bare-pg') ? 'bare-pg' : targets[1]?.name);

  // Probe every target first: a missing one fails the comparison before any load is sent.
  const sign = signer(o.secret);
  const down = [];
  for (const t of targets) {
    try {
      t.info = await probe(t.url, o.path, sign);
    } catch (err) {
      down.push(`${t.name}: ${err.message}`);
    }
  }
  if (down.length) {
    console.error(`compare: ${down.length} target(s) not usable:\n  ${down.join('\n  ')}`);
    if (!o['skip-down']) { console.error('compare: start them, or pass --skip-down to compare the others'); return 2; }
    targets = targets.filter((t) => t.info);
    if (!targets.length) return 2;
  }
  console.error(`compare: ${targets.map((t) => `${t.name}=${t.url}`).join(', ')}; workloads ${o.workloads.join(', ')}; ${rounds} round(s) of ${o.duration} s`);

  const results = await runRounds(targets, o.workloads, o, rounds);
  const agg = (w, name) => aggregate(results, w, name);
  printRuns(results, targets, o.workloads, rounds, o.duration);

  const names = targets.map((t) => t.name);
  const ratios = subject && baseline && subject !== baseline && names.includes(subject) && names.includes(baseline);
  console.log(`\n== side by side: req/s (p99 ms)${rounds > 1 ? ', medians' : ''}; events/s where it differs ==`);
  const header = ['workload', ...names, ...(ratios ? [`${subject}/${baseline} req/s`, `${subject}/${baseline} p99`] : [])];
  const rows = o.workloads.map((w) => {
    const a = Object.fromEntries(names.map((n) => [n, agg(w, n)]));
    const n = (v, d = 0) => (v === null ? '-' : v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }));
    const cell = (s) => (s.skipped ? 'skipped' : `${n(s.reqPerSec)}${s.eventsPerSec !== s.reqPerSec ? ` [${n(s.eventsPerSec)} ev/s]` : ''} (${n(s.p99, 1)}) ${s.pass ? 'PASS' : 'FAIL'}`);
    const cells = names.map((n) => cell(a[n]));
    if (ratios) {
      const s = a[subject], b = a[baseline];
      cells.push(s.skipped || b.skipped ? '-' : ratio(s.reqPerSec, b.reqPerSec), s.skipped || b.skipped ? '-' : ratio(s.p99, b.p99));
    }
    return [w, ...cells];
  });
  console.log(table(header, rows));
  if (o.json) console.log(`\nresults written to ${writeResults('compare', { ...o, targets }, results)}`);
  const ran = results.filter((x) => x.stats);
  return ran.every((x) => x.stats.check.pass) ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
    if (!o.targets) throw new Error('--targets name=url,name=url,... is required');
  } catch (err) {
    console.error(`compare: ${err.message}`);
    process.exit(2);
  }
  compare(o).then((code) => { process.exitCode = code; }, (err) => { console.error(err); process.exitCode = 1; });
}
