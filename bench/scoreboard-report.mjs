// What bench/scoreboard.mjs prints at the end: the machine and code it ran on, and the markdown
// tables of issue 11 (throughput and p99 against bare-pg, backlog, batch, WAL cost per event).
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { aggregate } from './compare.mjs';
import { withClient } from './procs.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const n = (v, d = 0) => (v === null || v === undefined ? '-' : v.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }));
const x = (a, b, bold) => (a !== null && b ? (bold ? `**${n(a / b, 2)}×**` : `${n(a / b, 2)}×`) : '-');
const maxOf = (xs) => (xs.some((v) => v === null) ? null : Math.max(...xs));

/** The commit, "+dirty" when the work tree has changes (read-only git commands), or "unknown". */
function gitCommit() {
  const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') ? '+dirty' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** The command as typed, re-quoted where the shell would need it. */
export function commandLine(argv = process.argv) {
  const q = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`);
  return ['node', path.relative(process.cwd(), argv[1]) || argv[1], ...argv.slice(2)].map(q).join(' ');
}

/** When dist/main.js was built (ISO time), to notice a rebuild during the run. */
export const distBuiltAt = () => statSync(`${ROOT}dist/main.js`, { throwIfNoEntry: false })?.mtime.toISOString() ?? null;

/** Machine, software and code facts for the header line (and the JSON file). */
export async function facts(adminUrl) {
  const cpus = os.cpus();
  const pgVersion = await withClient(adminUrl, async (c) => (await c.query('SHOW server_version')).rows[0].server_version);
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), commit: gitCommit(), command: commandLine(), distBuiltAt: distBuiltAt(),
    cpus: cpus.length, cpuModel: cpus[0]?.model?.trim(), memGiB: Math.round(os.totalmem() / 2 ** 30 * 10) / 10,
    node: process.version, postgres: pgVersion, loadavg: os.loadavg().map((v) => Math.round(v * 100) / 100),
  };
}

/** One backlog cell: worst over the rounds of "oldest event at the end / drained after". */
function backlogCell(runs, timeoutS) {
  const b = runs.map((r) => r.backlog).filter(Boolean);
  if (!b.length) return '-';
  const stuck = b.filter((v) => v.drainedAfterS === null);
  const oldest = Math.max(...b.map((v) => v.oldestAtEndS)), drained = maxOf(b.map((v) => v.drainedAfterS));
  const end = `${n(oldest, 1)} s${oldest > 2 ? ' (> 2 s)' : ''}`;
  if (stuck.length) return `${end} / **NOT DRAINED** (${n(Math.max(...stuck.map((v) => v.leftAfterTimeout)))} left ${timeoutS} s after the end)`;
  return `${end} / ${n(drained, 1)} s`;
}

const LABELS = { unique: 'unique (all new)', storm: 'storm (5,000 ids × 4)' };

/**
 * The markdown: header lines, the table (rows unique, storm and batch), the WAL table.
 * `r`: { facts, o, results (runRounds), batch (runWorkload result or undefined), wal (measureWalCost or undefined), failures }.
 */
export function markdown(r) {
  const f = r.facts, { o } = r;
  const ours = ['default', 'forward', 'acks-only'], all = [...ours, 'bare-pg'];
  const out = [
    `**${f.date}**, commit \`${f.commit}\`: ${f.cpus} × ${f.cpuModel}, ${n(f.memGiB, 1)} GiB, Node ${f.node}, PostgreSQL ${f.postgres}; load average at the start ${f.loadavg.join(' ')}`,
    '',
    `\`${f.command}\``,
    '',
    `${o.connections} connections, closed loop, ~1 KB Meta bodies, ${o.duration} s per run after a throwaway warm-up run per target, medians of ${o.rounds} round(s).`,
    `Backlog (default, forward): age of the oldest unprocessed event when the load ended / time until none was left, worst of the rounds (criterion: no event older than 2 s).`,
    '',
  ];
  const header = ['workload', 'default req/s (p99 ms)', 'forward', 'acks-only', 'bare-pg',
    ...ours.map((t) => `${t}/bare-pg req/s`), ...ours.map((t) => `${t}/bare-pg p99`), 'default backlog: oldest / drained', 'forward backlog'];
  const row = (cells) => `| ${cells.join(' | ')} |`;
  out.push(row(header), `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
  for (const w of ['unique', 'storm']) {
    const a = Object.fromEntries(all.map((t) => [t, aggregate(r.results, w, t)]));
    if (all.some((t) => !a[t].runs?.length)) continue;
    const cell = (s) => `${n(s.reqPerSec)} (${n(s.p99, 1)})${s.pass ? '' : ' FAIL'}`;
    const runsOf = (t) => r.results.filter((y) => y.workload === w && y.target === t);
    out.push(row([LABELS[w], ...all.map((t) => cell(a[t])), ...ours.map((t) => x(a[t].reqPerSec, a['bare-pg'].reqPerSec, true)),
      ...ours.map((t) => x(a[t].p99, a['bare-pg'].p99)), backlogCell(runsOf('default'), o['drain-timeout']), backlogCell(runsOf('forward'), o['drain-timeout'])]));
  }
  if (r.batch?.stats) {
    const s = r.batch.stats;
    const text = `${n(s.reqPerSec)} req/s = ${n(s.eventsPerSec)} events/s, p50 ${n(s.latencyMs.p50)} ms, p99 ${n(s.latencyMs.p99)} ms, max ${n(s.latencyMs.max)} ms, ${n(s.over1sPct, 1)} % > 1 s${s.check.pass ? '' : ' FAIL'}`;
    out.push(row([`batch (${n(r.batch.options.batchSize)} updates per POST, ${s.connections} connections, ${r.batch.duration} s; default)`, text, ...header.slice(2).map(() => '–')]));
  }
  out.push('', r.failures.length ? `**${r.failures.length} check(s) FAILED**: ${r.failures.map((s) => s.split('\n')[0]).join('; ')}` : 'Every check PASS.');
  if (r.wal) {
    const [ack, fwd] = r.wal, tables = Object.keys(fwd.rowVersionsPerEvent);
    out.push('', row([`configuration (${n(o.walEvents)} events)`, 'WAL bytes/event', ...tables.map((t) => `\`${t}\` row versions/event`), 'ratio to ack only', 'full-page images/event']),
      `|---|---:|${tables.map(() => '---:|').join('')}---:|---:|`);
    for (const w of r.wal) {
      out.push(row([w.label, n(w.walBytesPerEvent), ...tables.map((t) => n(w.rowVersionsPerEvent[t] ?? 0, 2)), x(w.walBytesPerEvent, ack.walBytesPerEvent, w === fwd), n(w.fullPageImagesPerEvent, 2)]));
    }
    out.push('', 'WAL from `pg_current_wal_lsn()`, full-page images from `pg_stat_wal`: both cluster-wide, so anything else writing to this PostgreSQL counts too; ' +
      'full-page images well above 0 per event mean something else wrote meanwhile (a checkpoint began, a database was created): measure again.');
  }
  return out.join('\n');
}
