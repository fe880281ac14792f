// How long the operator console takes to show its pages with 100,000 events stored:
//   npm run build && node bench/console-load.mjs [--events 100000] [--runs 5]
// Inserts the events with SQL into a scratch database (BENCH_DATABASE_URL's server), starts the
// built service, and loads Overview, Events and an event's detail in Debian's Chromium
// (/usr/bin/chromium, through playwright-core), each in a fresh page, printing the time from
// navigation start to the page's content (chart drawn, rows shown, timeline shown), plus the
// browser's own navigation timings. Not part of the test suite.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { createDatabase, dropDatabase, startNode, stopNode, withClient } from './procs.mjs';

const { values: opts } = parseArgs({ options: { events: { type: 'string', default: '100000' }, runs: { type: 'string', default: '5' } } });
const EVENTS = Number(opts.events);
const RUNS = Number(opts.runs);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const KEY = 'bench-console-inspection-key-0001';
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

if (!existsSync('dist/console/index.html')) throw new Error('dist/console is missing: run `npm run build` first');
if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);

/** EVENTS events over the last 7 days, newest first: 95 % processed, 2 % dead, 1 % failed, the rest waiting; 20 % redelivered. */
const INSERT = `
INSERT INTO messages (message_id, provider, kind, type, sender, tenant, provider_timestamp, payload, status, attempts, last_error,
                      duplicate_count, received_at, last_duplicate_at, processed_at, due_at, authenticated)
SELECT 'meta:msg:wamid.BENCH.' || g, (ARRAY['meta','meta','meta','twilio','generic'])[1 + g % 5]::provider,
       CASE WHEN g % 10 = 9 THEN 'status' ELSE 'message' END::event_kind, CASE WHEN g % 10 = 9 THEN 'delivered' ELSE 'text' END,
       '1650555' || lpad((g % 10000)::text, 4, '0'), 'tenant-' || (g % 40), at,
       jsonb_build_object('message', jsonb_build_object('id', 'wamid.BENCH.' || g, 'from', '1650555' || lpad((g % 10000)::text, 4, '0'), 'type', 'text', 'text', jsonb_build_object('body', 'message ' || g))),
       status::message_status, CASE WHEN status IN ('dead', 'failed') THEN 2 WHEN status = 'processed' THEN 1 ELSE 0 END,
       CASE WHEN status IN ('dead', 'failed') THEN 'forward: FORWARD_URL answered 503' END,
       CASE WHEN g % 5 = 0 THEN 1 ELSE 0 END, at, CASE WHEN g % 5 = 0 THEN at + interval '2 seconds' END,
       CASE WHEN status = 'processed' THEN at + interval '150 milliseconds' END, at, true
FROM (SELECT g, now() - (g * (interval '7 days' / $1::int)) AS at,
             CASE WHEN g % 100 < 2 THEN 'dead' WHEN g % 100 = 2 THEN 'failed' WHEN g % 100 = 3 AND g < 200 THEN 'received' ELSE 'processed' END AS status
      FROM generate_series(1, $1::int) AS g) AS rows`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(browser, baseUrl, hash, ready) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript((key) => sessionStorage.setItem('wdd.inspectionApiKey', key), KEY);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${baseUrl}/console/${hash}`, { waitUntil: 'commit' });
  await ready(page);
  const timing = JSON.parse(await page.evaluate(`JSON.stringify({
    content: performance.now(),
    domContentLoaded: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
    api: performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'fetch').map((e) => [new URL(e.name).pathname, Math.round(e.duration)]),
  })`));
  await page.close();
  if (errors.length) throw new Error(`${hash}: console errors: ${errors.join('; ')}`);
  return timing;
}

const PAGES = [
  ['Overview', '#/overview', (p) => Promise.all([p.locator('.chart canvas').waitFor(), p.getByRole('table', { name: 'By source' }).waitFor(), p.getByText('Backlog (not processed yet)').waitFor()])],
  ['Overview (week)', '#/overview?range=week', (p) => Promise.all([p.locator('.chart canvas').waitFor(), p.getByRole('table', { name: 'By source' }).waitFor()])],
  ['Events (50 rows)', '#/events', (p) => p.locator('table tbody tr').nth(49).waitFor()],
  ['Events, filtered (dead, tenant-1)', '#/events?status=dead&tenant=tenant-1', (p) => p.locator('table tbody tr').first().waitFor()],
  ['Event detail', `#/events/${encodeURIComponent('meta:msg:wamid.BENCH.50000')}`, (p) => p.locator('.timeline li').first().waitFor()],
];

const db = await createDatabase(ADMIN_URL);
let service;
let browser;
try {
  service = startNode('main.js', { DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', WORKER_ENABLED: 'false', INSPECTION_API_KEY: KEY }, /listening on port (\d+)/, 'service');
  await service.ready;
  const baseUrl = `http://127.0.0.1:${service.match[1]}`;
  const started = Date.now();
  await withClient(db.url, async (c) => {
    await c.query(INSERT, [EVENTS]);
    await c.query('ANALYZE messages');
  });
  console.log(`inserted ${EVENTS.toLocaleString('en-US')} events in ${((Date.now() - started) / 1000).toFixed(1)} s; ${RUNS} loads per page, each in a fresh page (the first one with a cold HTTP cache)`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  console.log('page                                 | first (ms) | median (ms) | DOMContentLoaded median (ms) | API calls of the last load (ms)');
  for (const [name, hash, ready] of PAGES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measure(browser, baseUrl, hash, ready));
    const last = runs.at(-1);
    console.log(`${name.padEnd(36)} | ${String(Math.round(runs[0].content)).padStart(10)} | ${String(Math.round(median(runs.map((r) => r.content)))).padStart(11)} | ${String(Math.round(median(runs.map((r) => r.domContentLoaded)))).padStart(28)} | ${last.api.map(([path, ms]) => `${path.replace(/^\/messages\/meta.*/, '/messages/{id}')} ${ms}`).join(', ')}`);
  }
} finally {
  await browser?.close();
  if (service) await stopNode(service);
  await dropDatabase(ADMIN_URL, db.name);
}
