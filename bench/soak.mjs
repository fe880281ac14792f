#!/usr/bin/env node
// Soak: a steady open-loop load for many minutes, then an overload burst. Self-contained: a scratch
// database, the service (`node dist/main.js`, default configuration, its in-process worker forwarding
// every event to the loopback downstream) and the load, all on this machine.
//   node bench/soak.mjs --minutes 10 --rate 500 [--redeliveries 0.2] [--burst 100] [--json]   (--minutes 0: the burst alone)
// Per minute: the service's RSS (median, min and max of one reading a second), ack p50/p99, answers, the backlog (oldest unprocessed event) and
// events forwarded. Then: every accepted event forwarded exactly once; the burst's 503 rate and the
// time until the service answers and drains as before.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import { parseOptions } from './options.mjs';
import { createDatabase, dropDatabase, startDownstream, startNode, stopNode, staleDist, withClient } from './procs.mjs';
import { pct, round, table, writeResults } from './report.mjs';
import { metaBatch, metaText } from './workloads.mjs';

const o = parseOptions(process.argv.slice(2), {
  minutes: '10', rate: '500', redeliveries: '0.2', burst: '100', db: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
});
const MINUTES = Number(o.minutes), RATE = Number(o.rate), REDELIVER = Number(o.redeliveries), BURST = Number(o.burst);
const APP_SECRET = 'soak-app-secret', FORWARD_SECRET = 'soak-forward-secret';
const sign = (body) => `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

function post(port, body) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request({ host: '127.0.0.1', port, path: '/webhook/meta', method: 'POST', agent, timeout: 30_000,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-hub-signature-256': sign(body) } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.on('timeout', () => req.destroy());
    req.end(body);
  });
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const backlog = (url) => withClient(url, async (c) => (await c.query(
  "SELECT count(*)::int AS n, coalesce(extract(epoch FROM now() - min(received_at)), 0)::float8 AS oldest FROM messages WHERE status IN ('received','processing','failed')")).rows[0]);

async function main() {
  const stale = staleDist();
  if (stale) console.error(`warning: ${stale} is newer than dist/main.js: run npm run build`);
  const db = await createDatabase(o.db);
  const downstream = await startDownstream(FORWARD_SECRET);
  const service = startNode('main.js', { PORT: '0', DATABASE_URL: db.url, WHATSAPP_APP_SECRET: APP_SECRET, WEBHOOK_PROVIDERS: 'meta',
    FORWARD_URL: downstream.url, FORWARD_SECRET, LOG_LEVEL: 'info' }, /listening on port (\d+)/, 'service');
  const results = { options: { minutes: MINUTES, rate: RATE, redeliveries: REDELIVER, burst: BURST }, minutes: [] };
  try {
    await service.ready;
    const port = Number(service.match[1]);
    const prefix = randomBytes(4).toString('hex');
    const sentIds = [];
    let accepted = 0, seq = 0;
    const nextBody = () => {
      const redeliver = sentIds.length > 100 && Math.random() < REDELIVER;
      const id = redeliver ? sentIds[sentIds.length - 1 - Math.floor(Math.random() * 100)] : `wamid.SOAK.${prefix}.${seq++}`;
      if (!redeliver) sentIds.push(id);
      return JSON.stringify(metaText(id, '', String(Math.floor(Date.now() / 1000))));
    };
    // Open loop: RATE requests a second, sent on schedule whether or not answers have come back.
    for (let minute = 1; minute <= MINUTES; minute++) {
      const answers = [];
      const inFlight = [];
      const until = Date.now() + 60_000;
      let due = Date.now();
      // RSS once a second: one reading lands at a random point of the garbage collector's cycle,
      // which moves RSS by ±15 % at 1,000 requests/s; the minute's median does not.
      const rss = [];
      let nextReading = Date.now();
      while (Date.now() < until) {
        for (; due <= Date.now(); due += 1000 / RATE) inFlight.push(post(port, nextBody()).then((a) => answers.push(a)));
        if (Date.now() >= nextReading) { rss.push(rssMb(service.pid)); nextReading += 1000; }
        await new Promise((r) => setTimeout(r, 5));
      }
      rss.sort((x, y) => x - y);
      await Promise.all(inFlight);
      for (const a of answers) if (a.status === 200) accepted += JSON.parse(a.body).accepted;
      const ms = answers.map((a) => a.ms).sort((x, y) => x - y);
      const b = await backlog(db.url);
      const forwarded = (await downstream.call({ cmd: 'stats' })).stats.distinct;
      const row = { minute, rssMb: round(pct(rss, 50), 1), rssMinMb: round(rss[0], 1), rssMaxMb: round(rss[rss.length - 1], 1), requests: answers.length, non200: answers.filter((a) => a.status !== 200).length,
        p50: round(pct(ms, 50), 1), p99: round(pct(ms, 99), 1), backlog: b.n, oldestS: round(b.oldest, 1), forwarded };
      results.minutes.push(row);
      console.error(`minute ${minute}: ${JSON.stringify(row)}`);
    }
    const drained = await downstream.call({ cmd: 'await', keys: accepted });
    const stats = (await downstream.call({ cmd: 'stats' })).stats;
    results.steady = { accepted, forwardedDistinct: stats.distinct, repeatedKeys: stats.keysArrivingMoreThanOnce, badSignature: stats.badSignature, drained: drained.reached };

    // Overload: BURST batches of 1,000 updates at once, beside the steady load.
    const burst = Array.from({ length: BURST }, (_, n) => metaBatch(`${prefix}X`, n, 1000, String(Math.floor(Date.now() / 1000))));
    const burstStarted = performance.now();
    const burstAnswers = await Promise.all(burst.map((body) => post(port, body)));
    const burstMs = performance.now() - burstStarted;
    const shed = burstAnswers.filter((a) => a.status === 503).length;
    // Recovered: a single delivery is answered 200 again (acks back), and the backlog the burst left is
    // empty (drained: the worker has caught up).
    let acksBackMs = null, recoveredMs = null;
    while (recoveredMs === null && performance.now() - burstStarted < 300_000) {
      const probe = await post(port, nextBody());
      if (probe.status === 200) acksBackMs ??= performance.now() - burstStarted;
      const b = await backlog(db.url);
      if (probe.status === 200 && b.n === 0) recoveredMs = performance.now() - burstStarted;
      else await new Promise((r) => setTimeout(r, 500));
    }
    results.overload = { batches: BURST, ok: burstAnswers.filter((a) => a.status === 200).length, shed, other: BURST - shed - burstAnswers.filter((a) => a.status === 200).length,
      burstSeconds: round(burstMs / 1000, 2), max503Ms: round(Math.max(0, ...burstAnswers.filter((a) => a.status === 503).map((a) => a.ms)), 1),
      acksBackSeconds: acksBackMs === null ? null : round(acksBackMs / 1000, 2),
      drainedSeconds: recoveredMs === null ? null : round(recoveredMs / 1000, 1), rssAfterMb: round(rssMb(service.pid), 1) };
  } finally {
    results.exit = await stopNode(service);
    await downstream.stop();
    await dropDatabase(o.db, db.name);
  }
  console.log(table(['minute', 'RSS MB (median)', 'RSS min-max', 'requests', 'non-200', 'p50 ms', 'p99 ms', 'backlog', 'oldest s', 'forwarded'],
    results.minutes.map((m) => [m.minute, m.rssMb, `${m.rssMinMb}-${m.rssMaxMb}`, m.requests, m.non200, m.p50, m.p99, m.backlog, m.oldestS, m.forwarded])));
  console.log(`\nsteady: ${JSON.stringify(results.steady)}\noverload: ${JSON.stringify(results.overload)}\nservice exit: ${JSON.stringify(results.exit)}`);
  if (o.json) console.log(`results written to ${writeResults('soak', o, results)}`);
}

main().catch((error) => { console.error(error); process.exitCode = 1; });
