// Loopback sinks for bench/destinations.mjs, run as a forked child (its CPU and event loop apart
// from the load generator's). One HTTP server, one path per destination:
//   /healthy   200 at once
//   /slow      200 after SLOW_MS (default 200 ms); counts requests of one conversation in flight at once
//   /flapping  cycles from the `start` command: FLAP_UP_S (20) of 200, then FLAP_DOWN_S (10) of 503 (no Retry-After)
//   /limited   200 at once
// Records every request: path, Idempotency-Key, arrival and answer time (process.hrtime ms, the clock
// every process of the machine shares), status answered, the body's conversation (tenant|from).
// IPC in: {cmd:'start', id} (resets, flapping's cycle starts now) -> {id, at};
//         {cmd:'stats', id} -> {id, paths: {name: {key[], at[], end[], status[], conv[]}}, maxInFlightPerConversation, badBody}.
// IPC out at start: {port}.
import { createServer } from 'node:http';

const SLOW_MS = Number(process.env.SLOW_MS ?? 200);
const UP_MS = Number(process.env.FLAP_UP_S ?? 20) * 1000, DOWN_MS = Number(process.env.FLAP_DOWN_S ?? 10) * 1000;
const PATHS = ['healthy', 'slow', 'flapping', 'limited'];
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
let epoch = nowMs(), rec, inFlight, maxInFlight, badBody;
const reset = () => {
  rec = Object.fromEntries(PATHS.map((p) => [p, { key: [], at: [], end: [], status: [], conv: [] }]));
  inFlight = new Map(); maxInFlight = 0; badBody = 0;
};
reset();

const flappingDown = (at) => (at - epoch) % (UP_MS + DOWN_MS) >= UP_MS;

const server = createServer((req, res) => {
  const at = nowMs();
  const name = req.url.slice(1).split('?')[0];
  const r = rec[name];
  if (!r || req.method !== 'POST') { res.writeHead(404).end(); return; }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let conv = null;
    try { const b = JSON.parse(Buffer.concat(chunks).toString('utf8')); conv = `${b.tenant ?? ''}|${b.from ?? ''}`; } catch { badBody++; }
    const status = name === 'flapping' && flappingDown(at) ? 503 : 200;
    const i = r.key.push(String(req.headers['idempotency-key'] ?? '')) - 1;
    r.at.push(at); r.status.push(status); r.conv.push(conv); r.end.push(null);
    const answer = () => {
      res.writeHead(status, { 'content-type': 'text/plain', 'content-length': 2 }).end(status === 200 ? 'ok' : 'no');
      r.end[i] = nowMs();
    };
    if (name !== 'slow') { answer(); return; }
    const n = (inFlight.get(conv) ?? 0) + 1;
    inFlight.set(conv, n);
    maxInFlight = Math.max(maxInFlight, n);
    setTimeout(() => { answer(); inFlight.set(conv, inFlight.get(conv) - 1); }, SLOW_MS);
  });
});
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

process.on('message', (m) => {
  if (m.cmd === 'start') { reset(); epoch = nowMs(); process.send({ id: m.id, at: epoch }); }
  else if (m.cmd === 'stats') process.send({ id: m.id, paths: rec, maxInFlightPerConversation: maxInFlight, badBody });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => { server.closeAllConnections?.(); server.close(() => process.exit(0)); });
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
