import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDownstream, isSignedWith, type Downstream, type ReceivedRequest } from './support/downstream.js';
import { eventually } from './support/eventually.js';
import { fixture, metaText, uniqueId } from './support/payloads.js';
import { postWebhook, startTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const TENANT = '106540352242922';
const dir = mkdtempSync(join(tmpdir(), 'wdd-destinations-'));
/** Writes a destinations file (YAML) whose URLs point at the loopback downstream, one path each. */
function destinationsFile(name: string, yaml: (url: string) => string, url: string): string {
  const path = join(dir, name);
  writeFileSync(path, yaml(url));
  return path;
}
const THREE = (url: string) => `
destinations:
  - name: bot
    url: ${url}/bot
    secret: bot-secret-0001
    filter: { kind: message, tenant: "${TENANT}" }
  - name: crm
    url: ${url}/crm
    secret: crm-secret-0001
    filter: { kind: status }
    maxAttempts: 2
  - name: warehouse
    url: ${url}/warehouse
    secret: warehouse-secret-0001
`;

let db: TestDatabase;
let downstream: Downstream;
let app: TestApp;
let crmUp = true;
const at = (path: string) => (r: ReceivedRequest) => r.path === `/hook/${path}`;

beforeAll(async () => {
  db = await createTestDatabase();
  downstream = await startDownstream((_n, req) => (req.path === '/hook/crm' && !crmUp ? { status: 503 } : { status: 200 }));
  app = await startTestApp({
    DATABASE_URL: db.url, WORKER_ENABLED: 'true', RETRY_BASE_MS: '100', RETRY_MAX_MS: '200',
    DESTINATIONS_FILE: destinationsFile('three.yaml', THREE, downstream.url),
  });
});
afterAll(async () => {
  await app?.close();
  await downstream?.close();
  await db?.drop();
});

function metaStatus(wamid: string) {
  const payload = fixture('meta_status_delivered');
  payload.entry[0].changes[0].value.statuses[0].id = wamid;
  return payload;
}
const detail = async (key: string) => (await fetch(`${app.baseUrl}/messages/${encodeURIComponent(key)}`)).json() as Promise<any>;

describe('destinations (DESTINATIONS_FILE)', () => {
  it('send each event once to every destination whose filter matches, signed with that destination’s secret', async () => {
    const message = uniqueId();
    const status = uniqueId('wamid.OUT');
    const otherTenant = metaText(uniqueId());
    otherTenant.entry[0].changes[0].value.metadata.phone_number_id = '999';
    await postWebhook(app.baseUrl, metaText(message));
    await postWebhook(app.baseUrl, metaStatus(status));
    await postWebhook(app.baseUrl, otherTenant);
    await postWebhook(app.baseUrl, metaText(message)); // a redelivery: nothing more anywhere
    const keys = [`meta:msg:${message}`, `meta:status:${status}:delivered`, `meta:msg:${otherTenant.entry[0].changes[0].value.messages[0].id}`];
    await eventually(async () => downstream.requests.filter(at('warehouse')).length, (n) => n >= 3);
    await eventually(async () => (await detail(keys[1])).destinations, (d: any[]) => d.length === 2 && d.every((x) => x.status === 'processed'));
    const sent = (path: string) => downstream.requests.filter(at(path)).map((r) => r.headers['idempotency-key']).sort();
    expect(sent('bot')).toEqual([keys[0]]);
    expect(sent('crm')).toEqual([keys[1]]);
    expect(sent('warehouse')).toEqual([...keys].sort());
    for (const r of downstream.requests) expect(isSignedWith(`${r.path.slice('/hook/'.length)}-secret-0001`, r)).toBe(true);
    expect((await detail(keys[0])).destinations).toMatchObject([
      { destination: 'bot', status: 'processed', attempts: 1, result: { status: 200 }, nextAttemptAt: null },
      { destination: 'warehouse', status: 'processed', attempts: 1 },
    ]);
    const stats = await (await fetch(`${app.baseUrl}/messages/stats`)).json() as any;
    expect(stats.byDestination.warehouse.processed).toBeGreaterThanOrEqual(3);
  });

  it('keep a failing destination’s retries and dead state to itself, and replay it on request', async () => {
    crmUp = false;
    const status = uniqueId('wamid.OUT');
    const key = `meta:status:${status}:delivered`;
    await postWebhook(app.baseUrl, metaStatus(status));
    const dead = await eventually(() => detail(key), (d) => d.destinations.some((x: any) => x.destination === 'crm' && x.status === 'dead'));
    expect(dead.status).toBe('processed');
    expect(dead.destinations).toMatchObject([
      { destination: 'crm', status: 'dead', attempts: 2, lastError: expect.stringContaining('destination crm answered 503'), brokeOrder: false },
      { destination: 'warehouse', status: 'processed', attempts: 1 },
    ]);
    expect(downstream.requests.filter((r) => at('warehouse')(r) && r.headers['idempotency-key'] === key)).toHaveLength(1);
    // Listed among the dead deliveries to crm, not among dead events (the event itself is processed).
    const ids = async (query: string) => ((await (await fetch(`${app.baseUrl}/messages?${query}&limit=200`)).json()) as any).items.map((i: any) => i.id);
    expect(await ids('status=dead&destination=crm')).toContain(key);
    expect(await ids('status=dead&destination=warehouse')).not.toContain(key);
    expect(await ids('status=processed&destination=warehouse')).toContain(key);
    expect(await ids('status=dead')).not.toContain(key);
    expect((await fetch(`${app.baseUrl}/messages?destination=Not%20a%20name`)).status).toBe(400);
    crmUp = true;
    const replay = await fetch(`${app.baseUrl}/messages/${encodeURIComponent(key)}/replay?destination=crm`, { method: 'POST' });
    expect(replay.status).toBe(202);
    expect(await replay.json()).toMatchObject({ destinations: ['crm'] });
    const done = await eventually(() => detail(key), (d) => d.destinations.every((x: any) => x.status === 'processed'));
    expect(downstream.requests.filter((r) => at('warehouse')(r) && r.headers['idempotency-key'] === key)).toHaveLength(1);
    // The timeline tells the crm's story apart from the warehouse's (whose delivery may come before or after crm's failures).
    const crm = done.timeline.filter((e: any) => e.destination === 'crm').map((e: any) => `${e.kind}${e.attempt ?? ''}`);
    expect(crm).toEqual(['delivery-failed1', 'delivery-failed2', 'dead2', 'replayed', 'delivery1']);
    expect(done.timeline.filter((e: any) => e.destination === 'warehouse')).toMatchObject([{ kind: 'delivery', attempt: 1 }]);
    expect(done.timeline.find((e: any) => e.kind === 'delivery-failed').error).toContain('destination crm answered 503');
    const again = await fetch(`${app.baseUrl}/messages/${encodeURIComponent(key)}/replay?destination=crm`, { method: 'POST' });
    expect(again.status).toBe(409);
  });

  it('never send again what a destination received, nor old events to a new destination, when the file changes', async () => {
    const before = uniqueId();
    await postWebhook(app.baseUrl, metaText(before));
    await eventually(async () => downstream.byKey(`meta:msg:${before}`).length, (n) => n === 2);
    await app.close();
    const withArchive = (url: string) => `${THREE(url)}  - name: archive\n    url: ${url}/archive\n`;
    app = await startTestApp({
      DATABASE_URL: db.url, WORKER_ENABLED: 'true', RETRY_BASE_MS: '100', DESTINATIONS_FILE: destinationsFile('four.yaml', withArchive, downstream.url),
    });
    const after = uniqueId();
    await postWebhook(app.baseUrl, metaText(after));
    await eventually(async () => downstream.byKey(`meta:msg:${after}`).length, (n) => n === 3);
    expect(downstream.byKey(`meta:msg:${before}`).map((r) => r.path).sort()).toEqual(['/hook/bot', '/hook/warehouse']);
    expect(downstream.byKey(`meta:msg:${after}`).map((r) => r.path).sort()).toEqual(['/hook/archive', '/hook/bot', '/hook/warehouse']);
  });

  it('refuse to start on a wrong entry, naming the entry and the field', async () => {
    const path = destinationsFile('bad.yaml', (url) => `destinations:\n  - name: crm\n    url: ${url}\n    rateLimit: { perSecond: -1 }\n`, downstream.url);
    await expect(startTestApp({ DATABASE_URL: db.url, DESTINATIONS_FILE: path })).rejects.toThrow(
      `DESTINATIONS_FILE ${path}: destination 1 (crm): rateLimit.perSecond must be a positive number`,
    );
    await expect(startTestApp({ DATABASE_URL: db.url, DESTINATIONS_FILE: path, FORWARD_URL: downstream.url })).rejects.toThrow('FORWARD_URL and DESTINATIONS_FILE');
  });
});
