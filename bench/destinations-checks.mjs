// Figures and correctness checks of one bench/destinations.mjs run, read from the database after the
// backlog drained (lag = destination_jobs.completed_at - messages.received_at, both PostgreSQL's clock)
// and from the sink's records (exactly once per Idempotency-Key, rate limit, order and one in flight).
import { round } from './report.mjs';

const n = (v, d = 1) => (v === null || v === undefined ? null : round(Number(v), d));

/** Per destination: deliveries, end-to-end events/s, lag and fan-out percentiles, attempts, dead. */
const SEND_JITTER_S = 0.1;

export async function measure(client, loadEndedAt) {
  const { rows } = await client.query(`
    SELECT j.destination, count(*)::int AS jobs,
      count(*) FILTER (WHERE j.status = 'processed')::int AS processed, count(*) FILTER (WHERE j.status = 'dead')::int AS dead,
      count(*) FILTER (WHERE j.status IN ('received', 'processing', 'failed'))::int AS unfinished,
      extract(epoch FROM max(j.completed_at) - min(m.received_at))::float8 AS span_s,
      extract(epoch FROM max(j.completed_at) - $1::timestamptz)::float8 AS after_load_s,
      percentile_disc(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM j.completed_at - m.received_at) * 1000) AS lag,
      max(extract(epoch FROM j.completed_at - m.received_at) * 1000)::float8 AS lag_max,
      percentile_disc(ARRAY[0.5, 0.99]) WITHIN GROUP (ORDER BY extract(epoch FROM j.created_at - m.received_at) * 1000) AS fanout
    FROM destination_jobs j JOIN messages m USING (message_id) GROUP BY 1 ORDER BY 1`, [loadEndedAt]);
  const { rows: att } = await client.query('SELECT destination, attempts, count(*)::int AS n FROM destination_jobs GROUP BY 1, 2 ORDER BY 1, 2');
  return Object.fromEntries(rows.map((r) => [r.destination, {
    jobs: r.jobs, processed: r.processed, dead: r.dead, unfinished: r.unfinished,
    spanS: n(r.span_s, 2), eventsPerSec: n(r.processed / r.span_s, 0), lastAfterLoadEndS: n(r.after_load_s, 2),
    lagMs: { p50: n(r.lag?.[0]), p95: n(r.lag?.[1]), p99: n(r.lag?.[2]), max: n(r.lag_max) },
    fanoutMs: { p50: n(r.fanout?.[0]), p99: n(r.fanout?.[1]) },
    attempts: Object.fromEntries(att.filter((a) => a.destination === r.destination).map((a) => [a.attempts, a.n])),
  }]));
}

/** Max requests in any window of `ms` (sorted arrival times), and in any calendar second since `t0`. */
function windows(times, t0, ms = 1000) {
  const t = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < t.length; i++) { while (t[i] - t[j] >= ms) j++; max = Math.max(max, i - j + 1); }
  const perSecond = new Map();
  for (const x of t) { const s = Math.floor((x - t0) / 1000); perSecond.set(s, (perSecond.get(s) ?? 0) + 1); }
  return { sliding: max, calendar: Math.max(0, ...perSecond.values()) };
}

/**
 * Every check of one run; returns { failures: [..], facts }. `sink`: the sink's stats; `dest`: the
 * configured destinations (destinationsFile().config); `o`: options (flapMaxAttempts, limit*).
 */
export async function check(client, sink, dest, o, sinkStartedAt, acks) {
  const failures = [], facts = {};
  const { rows: events } = await client.query("SELECT message_id, sender, status::text FROM messages");
  const { rows: jobs } = await client.query(`SELECT message_id, destination, status::text, attempts, (extract(epoch FROM ordered_at) * 1e6)::bigint AS o,
    (extract(epoch FROM received_at) * 1e6)::bigint AS r FROM destination_jobs`);
  for (const j of jobs) { j.o = Number(j.o); j.r = Number(j.r); }
  const notProcessed = events.filter((e) => e.status !== 'processed').length;
  if (notProcessed) failures.push(`${notProcessed} of ${events.length} events not processed`);
  for (const [name, d] of Object.entries(dest)) {
    const senders = d.filter?.match?.from ? new Set(d.filter.match.from) : null;
    const mine = new Map(jobs.filter((j) => j.destination === name).map((j) => [j.message_id, j]));
    const expected = events.filter((e) => !senders || senders.has(e.sender)).map((e) => e.message_id);
    const missingJobs = expected.filter((k) => !mine.has(k)).length;
    if (missingJobs || mine.size !== expected.length) failures.push(`${name}: ${mine.size} deliveries created, ${expected.length} events match its filter, ${missingJobs} of them without a delivery`);
    const dead = [...mine.values()].filter((j) => j.status === 'dead');
    const allowedDead = new Set(dead.filter((j) => name === 'flapping' && j.attempts >= o.flapMaxAttempts).map((j) => j.message_id));
    if (dead.length > allowedDead.size) failures.push(`${name}: ${dead.length - allowedDead.size} deliveries dead before maxAttempts`);
    const unfinished = [...mine.values()].filter((j) => !['processed', 'dead'].includes(j.status)).length;
    if (unfinished) failures.push(`${name}: ${unfinished} deliveries unfinished`);
    // The sink: exactly one 200 per expected key, none for anything else.
    const r = sink.paths[name], ok = new Map(), refused = new Map();
    r.key.forEach((k, i) => { const m = r.status[i] === 200 ? ok : refused; m.set(k, (m.get(k) ?? 0) + 1); });
    const want = expected.filter((k) => !allowedDead.has(k));
    const missing = want.filter((k) => !ok.has(k)).length;
    const twice = [...ok.values()].filter((c) => c > 1).length;
    const unknown = [...ok.keys()].filter((k) => !mine.has(k)).length;
    facts[name] = { expected: expected.length, requests: r.key.length, answered200: [...ok.values()].reduce((a, b) => a + b, 0), keysRefusedAtLeastOnce: refused.size, missing, deliveredTwice: twice, unknown, allowedDead: allowedDead.size };
    if (missing || twice || unknown) failures.push(`${name}: sink got ${missing} expected events never, ${twice} more than once, ${unknown} unknown keys (${JSON.stringify(facts[name])})`);
    if (d.rateLimit) {
      // Tokens are spent when a delivery is leased; it reaches the sink a little later, and that delay varies: arrivals
      // are held to the bound over the second plus SEND_JITTER_S of sending (the lease times themselves are not recorded).
      const w = windows(r.at, sinkStartedAt), cap = Math.floor(d.rateLimit.burst + d.rateLimit.perSecond * (1 + SEND_JITTER_S));
      Object.assign(facts[name], { maxInAnyWindow1s: w.sliding, maxInACalendarSecond: w.calendar, cap });
      if (w.sliding > cap) failures.push(`${name}: ${w.sliding} requests within one second (sliding window; ${w.calendar} in a calendar second), above burst + perSecond × ${1 + SEND_JITTER_S} s = ${cap}`);
    }
    if (d.ordering === 'conversation') Object.assign(facts[name], orderCheck(name, r, mine, sink.maxInFlightPerConversation, failures, acks));
  }
  if (sink.badBody) failures.push(`${sink.badBody} bodies the sink could not parse`);
  return { failures, facts };
}

/**
 * One conversation at a time (no overlap of [arrival, answer] at the sink) and in (ordered_at, received_at, id)
 * order. An event that comes first in that order but reached the sink after a later one is a violation only
 * if it was stored before that one was sent: acknowledged (so committed; `acks`: key -> ack time, the sink's
 * clock) more than LATE_SLACK_MS before the later one reached the sink. Otherwise it arrived late: without a
 * reorderWindow nothing could have waited for it (counted as lateArrivals).
 */
const LATE_SLACK_MS = 50;
function orderCheck(name, r, jobs, maxInFlight, failures, acks) {
  const byConv = new Map();
  r.key.forEach((k, i) => { if (!byConv.has(r.conv[i])) byConv.set(r.conv[i], []); byConv.get(r.conv[i]).push(i); });
  let overlaps = 0, late = 0;
  const violations = [];
  const before = (a, b) => a.o < b.o || (a.o === b.o && (a.r < b.r || (a.r === b.r && a.message_id < b.message_id)));
  for (const idx of byConv.values()) {
    idx.sort((a, b) => r.at[a] - r.at[b]);
    for (let x = 1; x < idx.length; x++) {
      if (r.at[idx[x]] < r.end[idx[x - 1]]) overlaps++;
      // every delivery sent before this one that comes after it in the conversation's order
      const cur = jobs.get(r.key[idx[x]]);
      for (let y = 0; cur && y < x; y++) {
        const prev = jobs.get(r.key[idx[y]]);
        if (!prev || !before(cur, prev)) continue;
        const margin = r.at[idx[y]] - (acks.get(cur.message_id) ?? Infinity); // > 0: cur was stored before prev was sent
        if (margin > LATE_SLACK_MS) violations.push({ sentFirst: prev.message_id, shouldHaveGoneFirst: cur.message_id, storedMsBeforeOtherSent: Math.round(margin) });
        else late++;
      }
    }
  }
  if (maxInFlight > 1 || overlaps) failures.push(`${name}: up to ${maxInFlight} requests of one conversation in flight at once, ${overlaps} overlapping pairs`);
  if (violations.length) failures.push(`${name}: ${violations.length} deliveries sent after a later event of their conversation although stored (acknowledged) more than ${LATE_SLACK_MS} ms before it was sent, e.g. ${JSON.stringify(violations.slice(0, 3))}`);
  return { conversations: byConv.size, maxInFlightPerConversation: maxInFlight, overlappingPairs: overlaps, orderViolations: violations.length,
    lateArrivals: late, orderViolationSample: violations.slice(0, 5) };
}
