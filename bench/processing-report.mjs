// Tables of bench/processing.mjs: medians over rounds per worker count (and per rate).
import { table } from './report.mjs';

const median = (xs) => {
  const s = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b), h = s.length >> 1;
  return s.length === 0 ? null : s.length % 2 ? s[h] : Math.round(((s[h - 1] + s[h]) / 2) * 10) / 10; // even count: mean of the middle two
};
const cpuCell = (c) => (c ? `${c.service}/${c.workers}/${c.postgres}/${c.downstream}/${c.bench}` : '-');

export function report(results, o) {
  const byW = o.workerCounts.map((W) => results.filter((r) => r.workers === W));
  const m = (rs, f) => median(rs.map(f));
  const thr = byW.map((rs) => [rs[0].workers, o.events, m(rs, (r) => r.drain?.eventsPerSec), m(rs, (r) => r.drain?.eventsPerSecFirstToLast), m(rs, (r) => r.drain?.readyToLastS),
    m(rs, (r) => r.drain?.firstForwardAfterReadyMs), m(rs, (r) => r.ingest?.eventsPerSec), rs.map((r) => cpuCell(r.cpu)).join(' '), rs.every((r) => r.pass) ? 'PASS' : 'FAIL']);
  console.log(`\nThroughput (median of ${o.rounds} round(s); cpu % per round = service/workers/postgres/downstream/bench, 100 = one core)`);
  console.log(table(['workers', 'events', 'events/s ready->last', 'events/s first->last', 'drain s', 'first fwd ms', 'ingest ev/s', 'cpu %', 'check'], thr));
  const lag = byW.flatMap((rs) => o.rateList.map((rate, i) => {
    const ls = rs.map((r) => r.lag?.[i]).filter(Boolean);
    const q = (f) => m(ls, f);
    return [rs[0].workers, rate, q((l) => l.requests), q((l) => l.ackMs.p50), q((l) => l.ackMs.p99), q((l) => l.lagMs.p50), q((l) => l.lagMs.p95), q((l) => l.lagMs.p99), q((l) => l.lagMs.max), q((l) => l.negativeLags),
      ls.map((l) => cpuCell(l.cpu)).join(' '), rs.every((r) => r.pass) ? 'PASS' : 'FAIL'];
  }));
  if (lag.length) {
    console.log(`\nLag ack -> first arrival downstream, ms (open loop, single-event requests, ${o['lag-seconds']} s per rate; median of ${o.rounds} round(s))`);
    console.log(table(['workers', 'events/s', 'events', 'ack p50', 'ack p99', 'lag p50', 'lag p95', 'lag p99', 'lag max', 'fwd<ack', 'cpu %', 'check'], lag));
  }
  for (const r of results) {
    console.log(`\nW=${r.workers}: ${r.pass ? 'PASS' : 'FAIL'} - ${JSON.stringify(r.checks ?? {})}; exit codes ${r.exitCodes}`);
    for (const f of r.failures) console.log(`  FAIL: ${f}`);
  }
}
