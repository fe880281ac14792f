// Figures from a tally (load.mjs), text tables, and the optional JSON results file.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';

export const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);

/** The figures of one measured phase, plus its correctness check. */
export function summarize(t, check) {
  const lat = Float64Array.from(t.latencies).sort();
  const firstSlow = lat.findIndex((v) => v > 1000);
  const slow = firstSlow === -1 ? 0 : lat.length - firstSlow;
  const non200 = Object.entries(t.statusCodes).reduce((s, [code, n]) => s + (code === '200' ? 0 : n), 0);
  const unanswered = t.sent - t.answered;
  const c = check(t);
  const notes = [];
  if (unanswered > 0) notes.push(`${unanswered} requests sent but never answered (errors ${t.errors}, timeouts ${t.timeouts})`);
  if (t.unclassified > 0) notes.push(`${t.unclassified} answers not understood, e.g. ${t.samples.join(' | ')}`);
  if (t.partial > 0) notes.push(`${t.partial} answers whose accepted+duplicates != events in the request`);
  if (t.aborted) notes.push('run aborted by autocannon (bailout after too many errors, or hard time cap)');
  return {
    requests: t.answered,
    sent: t.sent,
    seconds: round(t.elapsed, 2),
    reqPerSec: round(t.answered / t.elapsed, 1),
    eventsPerSec: round(t.okEvents / t.elapsed, 1),
    latencyMs: { p50: round(pct(lat, 50), 1), p90: round(pct(lat, 90), 1), p99: round(pct(lat, 99), 1), max: round(lat[lat.length - 1], 1) },
    over1sPct: lat.length ? round((100 * slow) / lat.length, 2) : 0,
    over1s: slow,
    statusCodes: t.statusCodes,
    non200,
    errors: t.errors,
    timeouts: t.timeouts,
    accepted: t.accepted,
    duplicates: t.duplicates,
    distinctIds: t.distinct,
    eventsSent: t.sentEvents,
    connections: t.connections,
    stoppedBy: t.aborted ? 'abort' : t.truncated ? 'duration' : 'ids exhausted',
    avgBodyBytes: Math.round(t.bodyBytes / Math.max(1, t.sent)),
    check: { pass: c.ok && unanswered === 0 && !t.aborted, detail: c.detail },
    notes,
  };
}

export function round(v, d) {
  if (!Number.isFinite(v)) return null;
  const f = 10 ** d;
  return Math.round(v * f) / f;
}

const fmt = (v) => (v === null || v === undefined ? '-' : typeof v === 'number' ? v.toLocaleString('en-US') : String(v));
const num = (v, d) => (v === null || v === undefined ? '-' : v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }));

/** Plain text table: header row + rows of cells; first column left-aligned, the others right-aligned. */
export function table(header, rows) {
  const cells = [header, ...rows].map((r) => r.map(fmt));
  const w = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) => r.map((c, j) => (j === 0 ? c.padEnd(w[j]) : c.padStart(w[j]))).join('  ').trimEnd();
  return [line(cells[0]), w.map((n) => '-'.repeat(n)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export const STAT_HEADER = ['requests', 'req/s', 'events/s', 'p50 ms', 'p99 ms', 'max ms', '>1s %', 'non-200', 'errors', 'check'];
export const statCells = (s) => [
  num(s.requests, 0), num(s.reqPerSec, 0), num(s.eventsPerSec, 0), num(s.latencyMs.p50, 1), num(s.latencyMs.p99, 1), num(s.latencyMs.max, 1),
  num(s.over1sPct, 2), num(s.non200, 0), num(s.errors, 0), s.check.pass ? 'PASS' : 'FAIL',
];

/** The lines under a table: status codes, the check's detail, anything odd. */
export function details(label, s) {
  const codes = Object.entries(s.statusCodes).map(([c, n]) => `${c}: ${n}`).join(', ') || 'none';
  const out = [`${label}: ${s.check.pass ? 'PASS' : 'FAIL'} - ${s.check.detail}; status codes {${codes}}; ${s.seconds} s, ${s.connections} connections, body ~${s.avgBodyBytes} B, stopped by ${s.stoppedBy}`];
  for (const n of s.notes) out.push(`    note: ${n}`);
  return out.join('\n');
}

/** Writes bench/results/<timestamp>[-kind].json (or `name(timestamp)`.json) and returns its path. */
export function writeResults(kind, options, results, name = (stamp) => `${stamp}${kind === 'run' ? '' : `-${kind}`}`) {
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = new URL(`${name(stamp)}.json`, dir);
  const env = { node: process.version, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadavg: os.loadavg(), host: os.hostname() };
  const opts = { ...options, secret: options.secret ? '(set, not recorded)' : undefined };
  writeFileSync(file, JSON.stringify({ kind, at: new Date().toISOString(), env, options: opts, results }, null, 2) + '\n');
  return file.pathname;
}
