#!/usr/bin/env node
// What unauthenticated requests cost everyone else (issue 20, point 4). Self-contained: a scratch
// database and the service (`node dist/main.js`, Meta enabled with an app secret), on this machine.
//   node bench/unauthenticated-load.mjs [--seconds 30] [--rate 100] [--stallers 40] [--nested 8] [--stall-signature none|forged] [--json]
// Two phases on one service process, each `--seconds` long, with the same open-loop stream of
// legitimate signed Meta deliveries (`--rate` a second, POST /webhook/meta, X-Hub-Signature-256):
//   baseline: that stream alone;
//   attack:   the same stream while `--stallers` sockets each send the headers of a 4 MB upload to
//             /webhook/meta and 3 MB of its body, then stall (reconnecting 1 s after the service
//             cuts one), and `--nested` clients each post a 3.8 MB body nested 1.9 million levels
//             deep ({"object":"whatsapp_business_account","entry":[[[…]]]}) to /webhook/meta without a signature, again as soon as one is answered.
// `--stall-signature forged` gives the stalled uploads a well-formed, wrong X-Hub-Signature-256, so the
// service cannot refuse them from their headers and only its request timeout cuts them.
// Per phase: the legitimate deliveries' p50/p99/max and non-200 count, the service's RSS (peak and at
// the end, read every 200 ms from /proc), the nested bodies' answer times and statuses, and how long
// the service held each stalled upload. WEBHOOK_BODY_LIMIT is pinned to 4mb so that every run
// measures the same uploads, whatever the default.
import http from 'node:http';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import { parseOptions } from './options.mjs';
import { createDatabase, dropDatabase, startNode, stopNode, staleDist } from './procs.mjs';
import { round, table, writeResults } from './report.mjs';
import { metaText } from './workloads.mjs';

const o = parseOptions(process.argv.slice(2), {
  seconds: '30', rate: '100', stallers: '40', nested: '8', 'stall-signature': 'none',
  db: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
});
const SECONDS = Number(o.seconds), RATE = Number(o.rate), STALLERS = Number(o.stallers), NESTED = Number(o.nested);
const APP_SECRET = 'unauth-bench-app-secret';
const UPLOAD_BYTES = 4 * 1024 * 1024, SENT_BEFORE_STALL = 3 * 1024 * 1024, DEPTH = 1_900_000;
const sign = (body) => `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
// Meta's shape, so that it reaches the signature check (a bare array is refused as not an object).
const NESTED_BODY = Buffer.from(`{"object":"whatsapp_business_account","entry":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

function post(port, body, headers) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request({ host: '127.0.0.1', port, path: '/webhook/meta', method: 'POST', agent, timeout: 60_000,
      headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.on('timeout', () => req.destroy());
    req.end(body);
  });
}

/** One stalled upload: headers, 3 MB of a 4 MB body, then nothing; resolves with how long the service kept the socket. */
function stall(port, forged) {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => {
      const signature = forged ? `x-hub-signature-256: sha256=${randomBytes(32).toString('hex')}\r\n` : '';
      socket.write(`POST /webhook/meta HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${UPLOAD_BYTES}\r\n${signature}\r\n`);
      socket.write(Buffer.alloc(SENT_BEFORE_STALL, 0x20)); // JSON whitespace: what an upload of a big body looks like to the server
    });
    let answer = '';
    socket.on('data', (d) => { if (answer === '') answer = d.toString('latin1').split('\r\n')[0]; });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ ms: performance.now() - started, answer }));
  });
}

async function phase(port, pid, prefix, attack) {
  const until = Date.now() + SECONDS * 1000;
  const answers = [], inFlight = [], rss = [];
  const attackers = [], nestedAnswers = [], stalls = [];
  const sampler = setInterval(() => rss.push(rssMb(pid)), 200);
  if (attack) {
    for (let i = 0; i < STALLERS; i++) attackers.push((async () => {
      while (Date.now() < until) { stalls.push(await stall(port, o['stall-signature'] === 'forged')); await sleep(1000); }
    })());
    for (let i = 0; i < NESTED; i++) attackers.push((async () => { while (Date.now() < until) nestedAnswers.push(await post(port, NESTED_BODY, {})); })());
  }
  let seq = 0, due = Date.now();
  while (Date.now() < until) {
    for (; due <= Date.now(); due += 1000 / RATE) {
      const body = Buffer.from(JSON.stringify(metaText(`wamid.UNAUTH.${prefix}.${attack ? 'A' : 'B'}.${seq++}`, '', String(Math.floor(Date.now() / 1000)))));
      inFlight.push(post(port, body, { 'x-hub-signature-256': sign(body) }).then((a) => answers.push(a)));
    }
    await sleep(5);
  }
  await Promise.all(inFlight);
  rss.push(rssMb(pid));
  clearInterval(sampler);
  const endRss = rssMb(pid);
  // Stalled sockets still open at the end are closed by the client: how long they were held so far is what counts.
  await Promise.race([Promise.all(attackers), sleep(1000)]);
  const ms = answers.map((a) => a.ms).sort((x, y) => x - y);
  const nestedMs = nestedAnswers.map((a) => a.ms).sort((x, y) => x - y);
  const held = stalls.map((s) => s.ms).sort((x, y) => x - y);
  const statuses = (list) => Object.entries(list.reduce((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {})).map(([k, v]) => `${k}:${v}`).join(' ');
  return {
    phase: attack ? 'attack' : 'baseline', requests: answers.length, non200: answers.filter((a) => a.status !== 200).length,
    p50: round(pct(ms, 50), 1), p99: round(pct(ms, 99), 1), max: round(ms.at(-1), 1),
    rssPeakMb: round(Math.max(...rss), 1), rssEndMb: round(endRss, 1),
    nested: nestedAnswers.length, nestedStatuses: statuses(nestedAnswers), nestedP50: round(pct(nestedMs, 50), 1), nestedMax: round(nestedMs.at(-1) ?? null, 1),
    stallsCut: stalls.length, stallAnswers: [...new Set(stalls.map((s) => s.answer || '(closed, no answer)'))].join(' | '),
    heldP50: round(pct(held, 50), 1), heldMax: round(held.at(-1) ?? null, 1),
  };
}

async function main() {
  const stale = staleDist();
  if (stale) console.error(`warning: ${stale} is newer than dist/main.js: run npm run build`);
  const db = await createDatabase(o.db);
  const service = startNode('main.js', { PORT: '0', DATABASE_URL: db.url, WHATSAPP_APP_SECRET: APP_SECRET, WEBHOOK_PROVIDERS: 'meta', WEBHOOK_BODY_LIMIT: '4mb', LOG_LEVEL: 'info' },
    /listening on port (\d+)/, 'service');
  const results = { options: { seconds: SECONDS, rate: RATE, stallers: STALLERS, nested: NESTED, stallSignature: o['stall-signature'] }, loadavg: readFileSync('/proc/loadavg', 'utf8').trim(), phases: [] };
  try {
    await service.ready;
    const port = Number(service.match[1]);
    const prefix = randomBytes(4).toString('hex');
    for (const attack of [false, true]) {
      const row = await phase(port, service.pid, prefix, attack);
      results.phases.push(row);
      console.error(`${row.phase}: ${JSON.stringify(row)}`);
    }
    results.loadavgAfter = readFileSync('/proc/loadavg', 'utf8').trim();
  } finally {
    results.exit = await stopNode(service);
    await dropDatabase(o.db, db.name);
    agent.destroy();
  }
  console.log(table(['phase', 'signed req', 'non-200', 'p50 ms', 'p99 ms', 'max ms', 'RSS peak MB', 'RSS end MB', 'nested answered', 'nested p50 ms', 'nested max ms', 'stalls ended', 'held p50 ms', 'held max ms'],
    results.phases.map((p) => [p.phase, p.requests, p.non200, p.p50, p.p99, p.max, p.rssPeakMb, p.rssEndMb, p.nested, p.nestedP50, p.nestedMax, p.stallsCut, p.heldP50, p.heldMax])));
  const attack = results.phases[1];
  console.log(`\nnested answers: ${attack.nestedStatuses}\nstalled uploads ended with: ${attack.stallAnswers}\nload average before: ${results.loadavg}; after: ${results.loadavgAfter}\nservice exit: ${JSON.stringify(results.exit)}`);
  if (o.json) console.log(`results written to ${writeResults('unauthenticated-load', o, results)}`);
  process.exit(0); // stalled sockets still open
}

main().catch((error) => { console.error(error); process.exitCode = 1; });
