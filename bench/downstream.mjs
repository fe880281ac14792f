// Loopback downstream for bench/processing.mjs, run as a forked child process so its CPU and
// event loop are separate from the load generator's. Answers 200 at once, then checks the
// forward: X-Signature-256 (HMAC-SHA256 of the raw body with FORWARD_SECRET), body.id equal to
// the Idempotency-Key header. Records per key the first arrival time and the number of arrivals.
// Times: process.hrtime (CLOCK_MONOTONIC), the same clock in every process of the machine.
// IPC in: {cmd:'await', keys:n, id} -> {id, reached, at} once n distinct keys have arrived;
//         {cmd:'stats', id, arrivals?: false} -> {id, stats}; {cmd:'reset', id} -> {id}.
// IPC out at start: {port}.
import { createServer } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';

const secret = process.env.FORWARD_SECRET ?? '';
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
let first = new Map(); // key -> first arrival (ms)
let count = new Map(); // key -> arrivals
let s;
const reset = () => {
  first = new Map(); count = new Map();
  s = { requests: 0, badSignature: 0, badBody: 0, idMismatch: 0, firstAt: null, lastNewAt: null };
};
reset();
let waiter = null; // {keys, id}

function verify(raw, headers) {
  const want = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  const got = String(headers['x-signature-256'] ?? '');
  if (got.length !== want.length || !timingSafeEqual(Buffer.from(got), Buffer.from(want))) s.badSignature++;
  try {
    const body = JSON.parse(raw.toString('utf8'));
    if (body.id !== headers['idempotency-key'] && encodeURIComponent(body.id) !== headers['idempotency-key']) s.idMismatch++;
    if (typeof body.receivedAt !== 'string' || Number.isNaN(Date.parse(body.receivedAt))) s.badBody++;
  } catch {
    s.badBody++;
  }
}

const server = createServer((req, res) => {
  const at = nowMs();
  const key = String(req.headers['idempotency-key'] ?? '');
  const n = (count.get(key) ?? 0) + 1;
  count.set(key, n);
  s.requests++;
  s.firstAt ??= at;
  if (n === 1) { first.set(key, at); s.lastNewAt = at; }
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 }).end('ok');
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => verify(Buffer.concat(chunks), req.headers));
  if (waiter && first.size >= waiter.keys) {
    process.send({ id: waiter.id, reached: first.size, at: s.lastNewAt });
    waiter = null;
  }
});
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

process.on('message', (m) => {
  if (m.cmd === 'await') {
    if (first.size >= m.keys) process.send({ id: m.id, reached: first.size, at: s.lastNewAt });
    else waiter = { keys: m.keys, id: m.id };
  } else if (m.cmd === 'stats') {
    const dup = [...count.values()].filter((c) => c > 1).length;
    // {arrivals: false}: counts only (the list of every key is large after a long run)
    process.send({ id: m.id, stats: { ...s, distinct: first.size, keysArrivingMoreThanOnce: dup, ...(m.arrivals === false ? {} : { arrivals: [...first] }) } });
  } else if (m.cmd === 'reset') {
    reset(); waiter = null;
    process.send({ id: m.id });
  }
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
