// The parts of bench/destinations.mjs that touch the outside: the sink child, the destinations file,
// the open-loop load (single Meta text messages over `senders` conversations), the wait for the
// backlog to drain and the circuit-breaker watch (destination_state, polled).
import { fork } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metaText, runPrefix } from './workloads.mjs';
import { sendOpenLoop, sleep } from './processing-phases.mjs';

export const SENDER = (i) => `1650555${String(i).padStart(4, '0')}`;
const PAD = 'Lorem ipsum dolor sit amet, bench padding. '.repeat(20).slice(0, 560); // bodies ~1 KB, as the unique workload

/** Forks destinations-sink.mjs; `call(msg)` resolves with its answer. */
export async function startSink(env = {}) {
  const child = fork(new URL('./destinations-sink.mjs', import.meta.url).pathname, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve, reject) => { child.once('message', (m) => resolve(m.port)); child.once('exit', (c) => reject(new Error(`sink exited with ${c}`))); });
  const pending = new Map();
  let seq = 0;
  child.on('message', (m) => { pending.get(m.id)?.(m); pending.delete(m.id); });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    pid: child.pid, base: `http://127.0.0.1:${port}`,
    call: (msg) => new Promise((resolve) => { const id = ++seq; pending.set(id, resolve); child.send({ ...msg, id }); }),
    stop: () => { if (child.exitCode === null) child.kill('SIGTERM'); return exited; },
  };
}

/**
 * The destinations of one run, written as JSON (the file takes YAML or JSON) to a temp dir.
 * `which`: names to configure; limited receives only the first `limitedSenders` senders' messages.
 */
export function destinationsFile(base, which, o) {
  const all = {
    healthy: { name: 'healthy', url: `${base}/healthy` },
    slow: { name: 'slow', url: `${base}/slow`, filter: { kind: 'message' }, ordering: 'conversation' },
    flapping: { name: 'flapping', url: `${base}/flapping`, circuitBreaker: { failures: 5, probeInterval: '2s' }, maxAttempts: o.flapMaxAttempts },
    limited: { name: 'limited', url: `${base}/limited`, rateLimit: { perSecond: o.limitRate, burst: o.limitBurst },
      ...(o.limitedSenders < o.senders ? { filter: { match: { from: Array.from({ length: o.limitedSenders }, (_, i) => SENDER(i)) } } } : {}) },
  };
  const file = join(mkdtempSync(join(tmpdir(), 'wdd-dest-bench-')), 'destinations.json');
  writeFileSync(file, JSON.stringify({ destinations: which.map((n) => all[n]) }, null, 2));
  return { file, config: Object.fromEntries(which.map((n) => [n, all[n]])) };
}

/**
 * Open loop: request k is due at t0 + k/rate whatever happened to the earlier ones, one Meta text
 * message each, sender k % senders, provider timestamp = the second it is sent. Ack latency from the
 * due time. Returns { recs: [{due, ack, status, key, accepted, error}], startedAt, endedAt (Date) }.
 */
export async function openLoop(url, rate, seconds, senders) {
  const prefix = runPrefix();
  const startedAt = new Date();
  const recs = await sendOpenLoop(url, rate, seconds, (k) => {
    const body = metaText(`wamid.BENCH_${prefix}_C${String(k).padStart(8, '0')}`, PAD, String(Math.floor(Date.now() / 1000)));
    const value = body.entry[0].changes[0].value;
    value.messages[0].from = value.contacts[0].wa_id = SENDER(k % senders);
    return JSON.stringify(body);
  });
  return { recs, startedAt, endedAt: new Date() };
}

const UNFINISHED = "status IN ('received', 'processing', 'failed')";

/** Polls until no event and no delivery is unfinished; returns { drainedAfterS, left } (null: timed out). */
export async function untilDrained(client, endedAt, timeoutS, proc) {
  for (;;) {
    const { rows: [r] } = await client.query(`SELECT (SELECT count(*) FROM messages WHERE ${UNFINISHED})::int AS events,
      (SELECT count(*) FROM destination_jobs WHERE ${UNFINISHED})::int AS deliveries`);
    const s = (Date.now() - endedAt.getTime()) / 1000;
    if (r.events === 0 && r.deliveries === 0) return { drainedAfterS: s, left: r };
    if (s > timeoutS) return { drainedAfterS: null, left: r };
    if (proc.exit) throw new Error(`service exited ${JSON.stringify(proc.exit)} while draining:\n${proc.tail.slice(-5).join('\n')}`);
    await sleep(250);
  }
}

/** Polls destination_state every `everyMs`: counts closed -> open transitions per destination, keeps a timeline. */
export function watchBreakers(client, everyMs = 200) {
  const last = new Map(), openings = {}, timeline = [], t0 = Date.now();
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      const { rows } = await client.query('SELECT destination, circuit, opened_at, paused_until > now() AS paused FROM destination_state').catch(() => ({ rows: [] }));
      for (const r of rows) {
        const was = last.get(r.destination);
        const state = `${r.circuit}${r.paused ? '+paused' : ''}`;
        if (r.circuit === 'open' && (was?.circuit !== 'open' || String(was?.opened_at) !== String(r.opened_at))) openings[r.destination] = (openings[r.destination] ?? 0) + 1;
        if (was?.state !== state) timeline.push(`${((Date.now() - t0) / 1000).toFixed(1)}s ${r.destination} ${state}`);
        last.set(r.destination, { ...r, state });
      }
      await sleep(everyMs);
    }
  })();
  return async () => { stop = true; await loop; return { openings, timeline }; };
}

export const freePort = () => new Promise((resolve, reject) => {
  const s = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

/** LOG_LEVEL=warn hides the ready line: polls GET /health/ready instead. */
export async function untilReady(url, proc) {
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    if (proc.exit) throw new Error(`${proc.label} exited ${JSON.stringify(proc.exit)} before it was ready:\n${proc.tail.join('\n')}`);
    if (await fetch(`${url}/health/ready`).then((r) => r.ok, () => false)) return;
    await sleep(200);
  }
  throw new Error(`${proc.label} not ready after 60 s:\n${proc.tail.join('\n')}`);
}

/** Waits until dist/main.js exists and has not changed for 5 s (a concurrent build empties dist/ first); returns its mtime. */
export async function stableDist(log, timeoutMs = 180_000) {
  const main = new URL('../dist/main.js', import.meta.url);
  let warned = false;
  for (const until = Date.now() + timeoutMs; Date.now() < until; await sleep(500)) {
    const m = statSync(main, { throwIfNoEntry: false })?.mtime;
    if (m && Date.now() - m.getTime() >= 5000) return m.toISOString();
    if (!m && !warned) { warned = true; log('  dist/main.js is missing (a build running?): waiting'); }
  }
  throw new Error('dist/main.js missing or changing for 3 minutes');
}
