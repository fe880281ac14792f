import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDownstream, type Downstream, type Reply } from './support/downstream.js';
import { eventually } from './support/eventually.js';
import { metaText, uniqueId } from './support/payloads.js';
import { postWebhook, startTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// Rate limits, circuit breakers and Retry-After, shared by every worker through PostgreSQL.
let db: TestDatabase;
let downstream: Downstream;
let apps: TestApp[] = [];
/** How the downstream answers each destination's path now. */
const behaviour: Record<string, () => Reply> = { limited: () => ({ status: 200 }), fragile: () => ({ status: 200 }), busy: () => ({ status: 200 }) };
const FILE = (url: string) => `
destinations:
  - name: limited
    url: ${url}/limited
    filter: { match: { "payload.message.text.body": limited } }
    rateLimit: { perSecond: 10, burst: 5 }
  - name: fragile
    url: ${url}/fragile
    filter: { match: { "payload.message.text.body": fragile } }
    maxAttempts: 3
    circuitBreaker: { failures: 3, probeInterval: 300ms }
  - name: busy
    url: ${url}/busy
    filter: { match: { "payload.message.text.body": busy } }
`;

beforeAll(async () => {
  db = await createTestDatabase();
  downstream = await startDownstream((_n, req) => behaviour[req.path.slice('/hook/'.length)]());
  const dir = mkdtempSync(join(tmpdir(), 'wdd-protection-'));
  writeFileSync(join(dir, 'destinations.yaml'), FILE(downstream.url));
  const env = { DATABASE_URL: db.url, WORKER_ENABLED: 'true', RETRY_BASE_MS: '100', RETRY_MAX_MS: '200', DESTINATIONS_FILE: join(dir, 'destinations.yaml') };
  apps = [await startTestApp(env), await startTestApp(env)]; // two services, two workers, one database
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await downstream?.close();
  await db?.drop();
});

const sendTo = (body: string, count: number) => Promise.all(Array.from({ length: count }, () => postWebhook(apps[0].baseUrl, metaText(uniqueId(), body))));
const arrivals = (path: string) => downstream.requests.filter((r) => r.path === `/hook/${path}`);
const destinations = async () => (await (await fetch(`${apps[1].baseUrl}/destinations`)).json()) as any[];
const jobs = (destination: string) => db.query('SELECT status, attempts FROM destination_jobs WHERE destination = $1', [destination]);

describe('protecting destinations', () => {
  it('hold a rate limit across every worker of every process: no second holds more than burst + rate (plus sending jitter)', async () => {
    await sendTo('limited', 50);
    await eventually(async () => arrivals('limited').length, (n) => n === 50, 30_000);
    const times = arrivals('limited').map((r) => r.at).sort((a, b) => a - b);
    const busiestSecond = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1000).length));
    // The bucket holds at lease time; arrivals get 100 ms of sending jitter: burst 5 + 10/s × 1.1 s.
    expect(busiestSecond).toBeLessThanOrEqual(5 + 11);
    // Two processes each limiting on its own would send 50 in under 2 s; shared, it takes at least (50 - 5) / 10 s.
    expect(times.at(-1)! - times[0]).toBeGreaterThanOrEqual(4000);
  });

  it('open the circuit after consecutive failures, pause without burning attempts, probe, and close on success', async () => {
    behaviour.fragile = () => ({ status: 500 });
    await sendTo('fragile', 10);
    const open = await eventually(destinations, (list) => list.find((d) => d.name === 'fragile')?.state === 'open');
    expect(open.find((d: any) => d.name === 'fragile')).toMatchObject({ consecutiveFailures: expect.any(Number), lastError: expect.stringContaining('answered 500') });
    // Each worker publishes the gate as it last read it (every lease loop, at least every WORKER_POLL_MS).
    await eventually(async () => (await fetch(`${apps[0].baseUrl}/metrics`)).text(), (text) => /wdd_destination_circuit_open\{destination="fragile"\} 1/.test(text));
    const whileOpen = arrivals('fragile').length;
    await eventually(async () => arrivals('fragile').length, (n) => n >= whileOpen + 2); // probes, one per interval
    expect((await jobs('fragile')).filter((j) => j.status === 'dead').length).toBeLessThan(10); // without the breaker all 10 die in ~1 s
    behaviour.fragile = () => ({ status: 200 });
    await eventually(async () => jobs('fragile'), (rows) => rows.length === 10 && rows.every((j) => j.status === 'processed' || j.status === 'dead'), 20_000);
    const after = await destinations();
    expect(after.find((d: any) => d.name === 'fragile')).toMatchObject({ state: 'closed', consecutiveFailures: 0, backlog: 0 });
    expect((await jobs('fragile')).filter((j) => j.status === 'processed').length).toBeGreaterThanOrEqual(7);
  });

  it('honour Retry-After by pausing the whole destination until then', async () => {
    let first = true;
    behaviour.busy = () => (first ? ((first = false), { status: 429, headers: { 'retry-after': '2' } }) : { status: 200 });
    await sendTo('busy', 1);
    await eventually(async () => arrivals('busy').length, (n) => n === 1);
    const paused = await eventually(destinations, (list) => list.find((d) => d.name === 'busy')?.state === 'paused');
    expect(paused.find((d: any) => d.name === 'busy').pausedUntil).not.toBeNull();
    await sendTo('busy', 3);
    await eventually(async () => arrivals('busy').length, (n) => n === 5, 20_000);
    const [refused, ...rest] = arrivals('busy').map((r) => r.at);
    for (const at of rest) expect(at - refused).toBeGreaterThanOrEqual(1900);
  });

  it('lists every destination with its state, limits and backlog', async () => {
    const list = await destinations();
    expect(list.map((d) => d.name)).toEqual(['limited', 'fragile', 'busy']);
    expect(list[0]).toMatchObject({ enabled: true, state: 'closed', rateLimit: { perSecond: 10, burst: 5 }, ordering: 'none', backlog: 0, dead: 0 });
  });
});
