// The three configurations of our service that bench/scoreboard.mjs measures, each on its own
// scratch database, and the backlog they leave: how old the oldest unfinished event is when a
// run ends, and how long the worker takes to finish every event after it.
import pg from 'pg';
import { createDatabase, dropDatabase, startDownstream, startNode, stopNode } from './procs.mjs';
import { probe, signer } from './load.mjs';
import { nowMs, sleep } from './processing-phases.mjs';
import { round } from './report.mjs';

const FORWARD_SECRET = 'scoreboard-forward-secret';

// Settings that would change a configuration if inherited from this shell (undefined: not passed on).
const CLEAN = { FORWARD_URL: undefined, FORWARD_SECRET: undefined, WORKER_ENABLED: undefined, AUTO_REPLY_TEXT: undefined,
  WHATSAPP_APP_SECRET: undefined, WASENDER_WEBHOOK_SECRET: undefined, GENERIC_WEBHOOK_SECRET: undefined };

/** name -> extra environment; `drains`: its in-process worker processes every event, so its backlog is measured. */
export const CONFIGS = {
  default: { env: () => ({}), drains: true },
  forward: { env: (sink) => ({ FORWARD_URL: sink.url, FORWARD_SECRET }), drains: true },
  'acks-only': { env: () => ({ WORKER_ENABLED: 'false' }), drains: false },
};

/**
 * Starts every configuration (and the loopback sink of `forward`) and returns
 * { services: [{ name, url, db, proc, drains, client, unfinished, info }], sink }.
 * LOG_LEVEL=info: the ready line ("listening on port N") is logged at info, requests at debug.
 */
export async function startServices(adminUrl, log) {
  const sink = await startDownstream(FORWARD_SECRET);
  const services = [];
  for (const [name, c] of Object.entries(CONFIGS)) {
    const db = await createDatabase(adminUrl);
    const env = { ...CLEAN, DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...c.env(sink) };
    services.push({ name, db, drains: c.drains, proc: startNode('main.js', env, /listening on port (\d+)/, name) });
  }
  for (const s of services) {
    await s.proc.ready;
    s.url = `http://127.0.0.1:${s.proc.match[1]}`;
    s.info = await probe(s.url, '/webhook', signer(undefined));
    // One open connection for the backlog polls: a new connection per poll would cost more than the query.
    s.client = new pg.Client({ connectionString: s.db.url });
    s.client.on('error', () => {}); // the database is dropped with (FORCE) on the way out
    await s.client.connect();
    s.unfinished = await unfinishedStatuses(s.client);
    log(`${s.name}: ${s.url} (pid ${s.proc.pid}), database ${s.db.name}`);
  }
  return { services, sink };
}

/**
 * The statuses of an event not finished yet: every message_status but processed and dead (read
 * from the database, so a renamed or added intermediate status is still counted as unfinished).
 */
async function unfinishedStatuses(client) {
  const { rows } = await client.query(
    "SELECT enumlabel AS s FROM pg_enum WHERE enumtypid = 'message_status'::regtype AND enumlabel NOT IN ('processed', 'dead') ORDER BY enumsortorder");
  return rows.map((r) => r.s);
}

// Matches the partial index messages_due_idx (unfinished rows only), so a poll stays cheap however many rows are finished.
const backlogQuery = (s, endedAt) => s.client.query(
  'SELECT count(*)::int AS n, extract(epoch FROM $1::timestamptz - min(received_at))::float8 AS oldest FROM messages WHERE status = ANY($2::message_status[])',
  [endedAt, s.unfinished]).then((r) => r.rows[0]);

/**
 * After a run that ended at `endedAt` (a Date): events left unfinished and the age of the oldest
 * of them at that moment, then polls until none is left (at most `timeoutMs`).
 * Returns { leftAtEnd, oldestAtEndS, drainedAfterS } (drainedAfterS null: not drained, see leftAfterTimeout).
 */
export async function settle(s, endedAt, timeoutMs) {
  const ended = nowMs() - (Date.now() - endedAt.getTime());
  const first = await backlogQuery(s, endedAt);
  const out = { leftAtEnd: first.n, oldestAtEndS: first.n ? round(Math.max(0, first.oldest), 2) : 0, drainedAfterS: 0 };
  let left = first.n;
  while (left > 0) {
    if (nowMs() - ended > timeoutMs) return { ...out, drainedAfterS: null, leftAfterTimeout: left };
    if (s.proc.exit) throw new Error(exitReason(s));
    await sleep(100);
    left = (await backlogQuery(s, endedAt)).n;
    out.drainedAfterS = round((nowMs() - ended) / 1000, 2);
  }
  return out;
}

/** Why a service is gone, for the error message: its exit and last log lines. */
export function exitReason(s) {
  const signalled = s.proc.tail.some((l) => /SIG(TERM|INT) received/.test(l));
  return `${s.name} (pid ${s.proc.pid}) exited ${JSON.stringify(s.proc.exit)} mid-run` +
    (signalled ? ': it was sent a signal from outside this script (something else stops `node dist/main.js` processes?)' : '') +
    `; last lines:\n${s.proc.tail.slice(-5).join('\n')}`;
}

/**
 * The sink's view of `forward`: every stored event forwarded exactly once, every signature
 * valid. Call when its backlog has drained. Returns { ok, detail }.
 */
export async function forwardCheck(s, sink) {
  const st = (await sink.call({ cmd: 'stats', arrivals: false })).stats;
  const { rows: [db] } = await s.client.query("SELECT count(*)::int AS stored, count(*) FILTER (WHERE status = 'processed')::int AS processed FROM messages");
  const detail = `${db.stored} events stored, ${db.processed} processed, ${st.distinct} distinct keys forwarded in ${st.requests} forwards; ` +
    `bad signatures ${st.badSignature}, bad bodies ${st.badBody}, id != Idempotency-Key ${st.idMismatch}`;
  const ok = db.stored === db.processed && st.distinct === db.stored && st.requests === st.distinct && !st.badSignature && !st.badBody && !st.idMismatch;
  return { ok, detail };
}

/** Dead events (finished, but not processed) per service: they should not appear here. */
export const deadCount = (s) => s.client.query("SELECT count(*)::int AS n FROM messages WHERE status = 'dead'").then((r) => r.rows[0].n);

/**
 * Stops the services (SIGTERM; a clean stop exits 0) and the sink, drops the databases.
 * Returns the failures (a non-zero exit).
 */
export async function stopServices({ services, sink }, adminUrl) {
  const failures = [];
  for (const s of services) {
    const e = await stopNode(s.proc);
    if (e.code !== 0) failures.push(`${s.name} (pid ${s.proc.pid}) exited ${JSON.stringify(e)} on SIGTERM, expected code 0; last lines:\n${s.proc.tail.slice(-5).join('\n')}`);
    await s.client?.end().catch(() => {});
    await dropDatabase(adminUrl, s.db.name);
  }
  await sink.stop();
  return failures;
}
