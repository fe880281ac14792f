#!/usr/bin/env node
// Benchmarks POST /webhook of one target with one or more workloads.
//   node bench/run.mjs --target http://127.0.0.1:3000 --workload unique --connections 32 --duration 20 [--json]
//   node bench/run.mjs --targets ours=http://127.0.0.1:3000,bare-pg=http://127.0.0.1:3102 ...  (compare mode)
// See bench/README.md for all options.
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { WORKLOADS } from './workloads.mjs';
import { probe, runPhase, signer, TargetDownError } from './load.mjs';
import { summarize, table, STAT_HEADER, statCells, details, writeResults, round } from './report.mjs';

const DEFAULTS = {
  target: 'http://127.0.0.1:3000', workload: undefined, connections: undefined, duration: 20, count: Infinity,
  ids: undefined, copies: 4, 'batch-size': 1000, size: 1024, timeout: 10, path: '/webhook', secret: process.env.WHATSAPP_APP_SECRET,
};
const NUMERIC = ['connections', 'duration', 'count', 'ids', 'copies', 'batch-size', 'size', 'timeout'];

export function parseArgs(argv) {
  const o = { ...DEFAULTS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    let [key, val] = a.slice(2).split(/=(.*)/s);
    if (val === undefined) val = argv[i + 1] === undefined || argv[i + 1].startsWith('--') ? true : argv[++i];
    o[key] = val;
  }
  for (const k of NUMERIC) {
    if (o[k] === undefined || typeof o[k] === 'number') continue;
    const n = o[k] === true ? NaN : Number(o[k]);
    if (!(n > 0)) throw new Error(`--${k} must be a positive number, got ${o[k]}`);
    o[k] = n;
  }
  o.workload ??= o.targets ? 'all' : 'unique'; // compare mode defaults to every workload
  o.workloads = String(o.workload) === 'all' ? Object.keys(WORKLOADS) : String(o.workload).split(',').map((s) => s.trim()).filter(Boolean);
  for (const w of o.workloads) if (!WORKLOADS[w]) throw new Error(`unknown workload ${w} (known: ${Object.keys(WORKLOADS).join(', ')}, all)`);
  return o;
}

/** Options of one workload: per-workload defaults filled in. */
function workloadOptions(name, o) {
  const wl = WORKLOADS[name];
  return {
    count: o.count, size: o.size, copies: o.copies, batchSize: o['batch-size'],
    ids: o.ids ?? (name === 'storm' ? 5000 : 2000),
    connections: o.connections ?? wl.defaultConnections ?? 32,
  };
}

/**
 * Runs one workload against one target: probe, optional unmeasured warm-up, measured phase.
 * Throws TargetDownError when the target does not answer. `info` is a probe result to reuse.
 */
export async function runWorkload(url, name, o, info) {
  const wl = WORKLOADS[name];
  const wo = workloadOptions(name, o);
  const sign = signer(o.secret);
  info ??= await probe(url, o.path, sign);
  if (wl.multiEvent && !info.json) {
    return { workload: name, url, skipped: 'target answers plain text (a single-id reference server): it cannot take multi-event batches' };
  }
  const plan = wl.plan(wo);
  const common = { url, path: o.path, connections: wo.connections, timeout: o.timeout, sign };
  const out = { workload: name, url, idPrefix: plan.prefix, options: wo, loadavg1Before: round(os.loadavg()[0], 2) };
  if (plan.warmup) {
    process.stderr.write(`  ${name} @ ${url}: warm-up, sending ${plan.warmup.total} ids once (not measured)... `);
    const w = await runPhase({ ...common, src: plan.warmup, duration: Infinity });
    out.warmup = { sent: w.sent, accepted: w.accepted, duplicates: w.duplicates, seconds: round(w.elapsed, 2), statusCodes: w.statusCodes };
    process.stderr.write(`accepted ${w.accepted}/${w.sent} in ${out.warmup.seconds} s\n`);
    if (w.accepted !== w.sent) console.error(`  ! warm-up: only ${w.accepted} of ${w.sent} ids were accepted (status codes ${JSON.stringify(w.statusCodes)})`);
  }
  process.stderr.write(`  ${name} @ ${url}: measuring, ${o.duration} s max, ${wo.connections} connections... `);
  const t = await runPhase({ ...common, src: plan.measured, duration: o.duration });
  out.stats = summarize(t, plan.check);
  out.loadavg1After = round(os.loadavg()[0], 2);
  process.stderr.write(`${out.stats.requests} requests, ${out.stats.check.pass ? 'PASS' : 'FAIL'}\n`);
  return out;
}

async function main(argv) {
  let o;
  try {
    o = parseArgs(argv);
  } catch (err) {
    console.error(`bench: ${err.message}\nusage: npm run bench -- --target <url> --workload <${Object.keys(WORKLOADS).join('|')}|all>[,...] [--connections 32] [--duration 20] [--json]`);
    return 2;
  }
  if (o.help) {
    console.log('See bench/README.md. Workloads:');
    for (const [k, w] of Object.entries(WORKLOADS)) console.log(`  ${k.padEnd(11)} ${w.describe}`);
    return 0;
  }
  if (o.targets) return (await import('./compare.mjs')).compare(o);

  let info;
  try {
    info = await probe(o.target, o.path, signer(o.secret));
  } catch (err) {
    if (err instanceof TargetDownError) { console.error(`bench: ${err.message}`); return 2; }
    throw err;
  }
  console.error(`bench: ${o.target}${o.path} answers ${info.json ? 'JSON' : 'plain text'}; workloads ${o.workloads.join(', ')}; duration ${o.duration} s${o.secret ? '; signing bodies' : ''}`);
  const results = [];
  for (const name of o.workloads) {
    try {
      results.push(await runWorkload(o.target, name, o, info));
    } catch (err) {
      if (!(err instanceof TargetDownError)) throw err;
      console.error(`bench: ${err.message}`);
      return 2;
    }
  }
  const ran = results.filter((r) => r.stats);
  console.log(`\nTarget ${o.target}  (node ${process.version})`);
  console.log(table(['workload', ...STAT_HEADER], ran.map((r) => [r.workload, ...statCells(r.stats)])));
  console.log('');
  for (const r of results) console.log(r.stats ? details(r.workload, r.stats) : `${r.workload}: skipped - ${r.skipped}`);
  if (o.json) console.log(`\nresults written to ${writeResults('run', o, results)}`);
  return ran.every((r) => r.stats.check.pass) ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err) => { console.error(err); process.exitCode = 1; });
}
