// What bench/destinations.mjs prints: machine facts, one markdown table (every run, every
// destination), the healthy destination's lag baseline against full, and the checks.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { commandLine, distBuiltAt } from './scoreboard-report.mjs';
import { withClient } from './procs.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const f = (v, d = 0) => (v === null || v === undefined || Number.isNaN(v) ? '-' : Number(v).toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }));
const ratio = (a, b) => (a !== null && b ? `**${f(a / b, 2)}×**` : '-');

/** Machine, software and code facts (the commit from `git rev-parse --short HEAD` only). */
export async function facts(adminUrl) {
  let commit = 'unknown';
  try { commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { /* no git */ }
  const pg = await withClient(adminUrl, async (c) => (await c.query('SHOW server_version')).rows[0].server_version);
  const cpus = os.cpus();
  return { date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), commit, command: commandLine(), distBuiltAt: distBuiltAt(), cpus: cpus.length,
    cpuModel: cpus[0]?.model?.trim(), memGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10, node: process.version, postgres: pg,
    loadavg: os.loadavg().map((v) => Math.round(v * 100) / 100) };
}

const attemptsCell = (a) => Object.entries(a ?? {}).map(([k, v]) => `${k}: ${f(v)}`).join(', ') || '-';

/** The markdown: header, the per-destination table, the healthy comparison, the load lines. */
export function markdown({ facts: m, o, runs, failures }) {
  const out = [
    `\`${m.command}\`, ${m.date}, commit ${m.commit} (dist built ${m.distBuiltAt}). ${m.cpus} × ${m.cpuModel}, ${m.memGiB} GiB, Node ${m.node}, ` +
      `PostgreSQL ${m.postgres}; service, sink, load generator and PostgreSQL on the same box; load average at the start ${m.loadavg.join(' / ')}.`,
    `Load: ${f(o.rate)} single-message Meta deliveries/s (~1 KB, open loop) for ${o.duration} s over ${o.senders} senders (conversations); ` +
      `one \`dist/main.js\`, WORKER_ENABLED=true, LOG_LEVEL=warn, defaults otherwise (WORKER_CONCURRENCY ${process.env.WORKER_CONCURRENCY ?? 64}, RETRY_BASE_MS ${process.env.RETRY_BASE_MS ?? 1000}); a fresh database per run. ` +
      `Sinks: healthy 200 at once; slow 200 after ${o.slowMs} ms, ordering: conversation; flapping ${o.flapUp} s of 200 then ${o.flapDown} s of 503 from the ` +
      `load's start, circuitBreaker 5 failures / 2 s probe, maxAttempts ${o.flapMaxAttempts}; limited rateLimit ${o.limitRate}/s burst ${o.limitBurst}` +
      `${o.limitedSenders < o.senders ? `, messages of ${o.limitedSenders} of the ${o.senders} senders` : ''}. Lag: completed_at − messages.received_at.`,
    '',
    `Full run: ${o.fullList.join(', ')}. CPU % below: service, sink, this process (load generator) and every postgres process of the box (other databases' work included).`,
    '',
    '| round | run | destination | finished / expected | events/s end to end | lag p50 ms | p95 | p99 | max | fan-out p99 ms | attempts (n: deliveries) | dead | breaker openings | last delivery after load end | check |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|',
  ];
  for (const r of runs) {
    for (const [name, d] of Object.entries(r.destinations ?? {})) {
      const c = r.checks?.facts?.[name];
      const own = (r.failures ?? []).filter((x) => x.startsWith(`${name}:`));
      out.push(`| ${r.round} | ${r.kind} | ${name} | ${f(d.processed)} / ${f(c?.expected ?? d.jobs)} | ${f(d.eventsPerSec)} | ${f(d.lagMs.p50, 1)} | ${f(d.lagMs.p95, 1)} | ` +
        `${f(d.lagMs.p99, 1)} | ${f(d.lagMs.max, 1)} | ${f(d.fanoutMs.p99, 1)} | ${attemptsCell(d.attempts)} | ${f(d.dead)} | ${f(r.breakers?.openings?.[name] ?? 0)} | ` +
        `${f(d.lastAfterLoadEndS, 1)} s | ${own.length ? 'FAIL' : 'PASS'} |`);
    }
  }
  out.push('', '| round | healthy lag p50 baseline → full | ratio | p99 baseline → full | ratio | ack p50 / p99 ms baseline → full | backlog drained after load end (s) baseline / full |', '|---|---:|---:|---:|---:|---:|---:|');
  for (const round of [...new Set(runs.map((r) => r.round))]) {
    const b = runs.find((r) => r.round === round && r.kind === 'baseline'), u = runs.find((r) => r.round === round && r.kind === 'full');
    const h = (r, p) => r?.destinations?.healthy?.lagMs?.[p] ?? null;
    out.push(`| ${round} | ${f(h(b, 'p50'), 1)} → ${f(h(u, 'p50'), 1)} | ${ratio(h(u, 'p50'), h(b, 'p50'))} | ${f(h(b, 'p99'), 1)} → ${f(h(u, 'p99'), 1)} | ${ratio(h(u, 'p99'), h(b, 'p99'))} | ` +
      `${f(b?.load?.ackMs?.p50, 1)} / ${f(b?.load?.ackMs?.p99, 1)} → ${f(u?.load?.ackMs?.p50, 1)} / ${f(u?.load?.ackMs?.p99, 1)} | ${f(b?.drain?.drainedAfterS, 1)} / ${f(u?.drain?.drainedAfterS, 1)} |`);
  }
  out.push('');
  for (const r of runs) {
    const l = r.load;
    out.push(`- round ${r.round} ${r.kind}: ${f(l?.sent)} requests in ${f(l?.sendSeconds, 1)} s (${f(l?.achievedRate, 0)}/s), ${f(l?.accepted)} accepted, ${f(l?.notOk)} not 200/accepted; ` +
      `ack p50 ${f(l?.ackMs?.p50, 1)} ms, p99 ${f(l?.ackMs?.p99, 1)} ms; drained ${r.drain?.drainedAfterS === null ? `NOT (left ${JSON.stringify(r.drain?.left)})` : `${f(r.drain?.drainedAfterS, 1)} s`} after the load ended; ` +
      `CPU % (100 = one core) during the load ${JSON.stringify(r.cpuLoad ?? {})}; service exit ${r.exit ?? '-'}; checks ${r.failures?.length ? 'FAIL' : 'PASS'}` + (r.checks?.facts ? `; sink ${JSON.stringify(r.checks.facts)}` : '') +
      (r.breakers?.timeline?.length ? `; breaker states (s after the load started): ${r.breakers.timeline.slice(0, 30).join(', ')}${r.breakers.timeline.length > 30 ? ', …' : ''}` : ''));
  }
  out.push('', failures.length ? `**FAILED**:\n- ${failures.join('\n- ')}` : 'Every check PASS.');
  return out.join('\n');
}
