import { insertDeadEvents, insertEvents, statusesOf, twoDestinationsFile } from './support/bulk-replay.js';
import { startDownstream, type Downstream } from './support/downstream.js';
import { eventually } from './support/eventually.js';
import { metaText, uniqueId } from './support/payloads.js';
import { postWebhook, startTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let downstream: Downstream;
let app: TestApp;
let crmUp = true;

beforeAll(async () => {
  db = await createTestDatabase();
  downstream = await startDownstream((_n, req) => (req.path === '/hook/crm' && !crmUp ? { status: 503 } : { status: 200 }));
  app = await startTestApp({
    DATABASE_URL: db.url, WORKER_ENABLED: 'true', MAX_ATTEMPTS: '2', RETRY_BASE_MS: '50', RETRY_MAX_MS: '100',
    DESTINATIONS_FILE: twoDestinationsFile(downstream.url),
  });
});
afterAll(async () => {
  await app?.close();
  await downstream?.close();
  await db?.drop();
});

const replay = async (query: string, key?: string) => {
  const res = await fetch(`${app.baseUrl}/messages/replay?${query}`, { method: 'POST', headers: key === undefined ? {} : { 'Idempotency-Key': key } });
  return { status: res.status, body: (await res.json()) as any, repeated: res.headers.get('idempotent-replayed') };
};
const detail = async (key: string) => (await fetch(`${app.baseUrl}/messages/${encodeURIComponent(key)}`)).json() as Promise<any>;
const dbNow = async () => ((await db.query('SELECT now() AS t'))[0].t as Date).toISOString();
const sentTo = (path: string, key: string) => downstream.byKey(key).filter((r) => r.path === `/hook/${path}`).length;
const events = (replayed: number) => ({ replayed, dryRun: false, target: 'events', destination: null });
const settled = (d: any) => d.destinations.length === 2 && d.destinations.every((x: any) => ['processed', 'dead'].includes(x.status));

describe('POST /messages/replay of events', () => {
  it('counts in a dry run without changing anything, and replays only what the filters select', async () => {
    const tenant = uniqueId('tenant');
    const recently = new Date(Date.now() - 86_400_000).toISOString();
    await insertEvents(db, [
      { key: `${tenant}:a`, tenant, status: 'dead' },
      { key: `${tenant}:b`, tenant, status: 'dead', provider: 'wasender' },
      { key: `${tenant}:c`, tenant, status: 'failed', provider: 'wasender', daysAgo: 3 },
      { key: `${tenant}:d`, tenant, status: 'processed', provider: 'wasender' },
      { key: `${tenant}:e`, tenant: uniqueId('other'), status: 'dead', provider: 'wasender' },
    ]);
    expect(await replay(`tenant=${tenant}&dryRun=true`, 'dry-key')).toEqual({ status: 200, body: { ...events(3), dryRun: true }, repeated: null });
    expect(await statusesOf(db, tenant)).toEqual({ dead: 2, failed: 1, processed: 1 });

    expect((await replay(`tenant=${tenant}&provider=wasender&since=${recently}`)).body).toEqual(events(1));
    expect((await detail(`${tenant}:b`)).status).not.toBe('dead');
    expect(await replay(`tenant=${tenant}&status=failed`)).toMatchObject({ status: 200, body: events(1) });
    expect((await detail(`${tenant}:c`)).status).not.toBe('failed');
    expect((await detail(`${tenant}:a`)).status).toBe('dead');
    // The dry run stored nothing: its key acts when used for real.
    expect(await replay(`tenant=${tenant}`, 'dry-key')).toMatchObject({ body: events(1), repeated: null });
    await eventually(() => statusesOf(db, tenant), (s) => s.processed === 4);
    expect((await detail(`${tenant}:d`)).replays).toBe(0);
  });

  it('refuses what it cannot do, naming the parameters', async () => {
    const cases: Array<[string, RegExp]> = [
      ['status=processed', /status=processed needs fromStart=true/],
      ['status=received&fromStart=true', /status=received/],
      ['status=processing&destination=crm', /processing deliveries/],
      ['limit=10', /limit/],
      ['cursor=abc', /cursor/],
      ['fromStart=yes', /fromStart/],
      ['from=start&dryRun=1', /dryRun/],
      ['destination=Not%20A%20Name', /destination/],
      ['destination=nosuch', /destination=nosuch is not in DESTINATIONS_FILE/],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await replay(query);
      expect({ query, status, message: JSON.stringify(body.message) }).toEqual({ query, status: 400, message: expect.stringMatching(message) });
    }
    expect((await replay('dryRun=true', 'k'.repeat(256))).body.message).toMatch(/Idempotency-Key/);
  });

  it('replays more rows than one batch holds, each once, even from the start while workers finish them', async () => {
    const tenant = uniqueId('bulk');
    await insertDeadEvents(db, tenant, 1200);
    expect(await replay(`tenant=${tenant}`, `${tenant}-first`)).toMatchObject({ status: 200, body: events(1200) });
    const after = await statusesOf(db, tenant);
    expect(after.dead).toBeUndefined();
    expect((after.received ?? 0) + (after.processing ?? 0) + (after.processed ?? 0)).toBe(1200);
    expect((await replay(`tenant=${tenant}`)).body).toEqual(events(0));

    await eventually(() => statusesOf(db, tenant), (s) => s.processed === 1200, 25_000);
    expect((await replay(`tenant=${tenant}&fromStart=true`)).body).toEqual(events(1200));
    const replays = await db.query('SELECT replays, count(*)::int AS n FROM messages WHERE tenant = $1 GROUP BY replays', [tenant]);
    expect(replays).toEqual([{ replays: 1, n: 1200 }]);
  });

  it('lets only one of two concurrent calls with the same Idempotency-Key act', async () => {
    const tenant = uniqueId('race');
    await insertDeadEvents(db, tenant, 1200);
    const answers = await Promise.all([replay(`tenant=${tenant}`, tenant), replay(`tenant=${tenant}`, tenant)]);
    const acted = answers.filter((a) => a.status === 200 && a.repeated === null);
    expect(acted).toEqual([{ status: 200, body: events(1200), repeated: null }]);
    for (const other of answers.filter((a) => a !== acted[0])) {
      expect([{ status: 200, body: events(1200), repeated: 'true' }, { status: 409, body: expect.objectContaining({ message: expect.stringMatching(/in progress/) }), repeated: null }])
        .toContainEqual(other);
    }
    expect(await replay(`tenant=${tenant}`, tenant)).toEqual({ status: 200, body: events(1200), repeated: 'true' });
  });
});

describe('POST /messages/replay?destination=', () => {
  it('replays one destination’s dead deliveries, once per Idempotency-Key', async () => {
    const since = await dbNow();
    crmUp = false;
    const keys = [uniqueId(), uniqueId()].map((id) => `meta:msg:${id}`);
    for (const key of keys) await postWebhook(app.baseUrl, metaText(key.slice('meta:msg:'.length)));
    for (const key of keys) await eventually(() => detail(key), settled);
    expect((await replay(`since=${since}`)).body).toEqual(events(0)); // the events themselves were processed
    const crm = { replayed: 2, dryRun: false, target: 'deliveries', destination: 'crm' };
    expect((await replay(`since=${since}&destination=crm&dryRun=true`)).body).toEqual({ ...crm, dryRun: true });

    crmUp = true;
    expect(await replay(`since=${since}&destination=crm`, `crm-${since}`)).toEqual({ status: 200, body: crm, repeated: null });
    for (const key of keys) await eventually(() => detail(key), (d) => d.destinations.every((x: any) => x.status === 'processed'));
    expect(keys.map((key) => [sentTo('crm', key), sentTo('archive', key)])).toEqual([[2, 1], [2, 1]]);

    // A third dead delivery now matches the filters too: the repeat must still do nothing.
    crmUp = false;
    const third = `meta:msg:${uniqueId()}`;
    await postWebhook(app.baseUrl, metaText(third.slice('meta:msg:'.length)));
    await eventually(() => detail(third), settled);
    crmUp = true;
    const received = downstream.requests.length;
    expect(await replay(`since=${since}&destination=crm`, `crm-${since}`)).toEqual({ status: 200, body: crm, repeated: 'true' });
    await new Promise((r) => setTimeout(r, 500));
    expect(downstream.requests.length).toBe(received);
    expect((await detail(third)).destinations.find((x: any) => x.destination === 'crm').status).toBe('dead');

    const conflict = await replay(`since=${since}&destination=archive`, `crm-${since}`);
    expect(conflict.status).toBe(409);
    expect(conflict.body.message).toContain(`Idempotency-Key crm-${since}`);
  });

  it('with fromStart=true sends processed deliveries again under a new key, and events from the start to every destination', async () => {
    const since = await dbNow();
    const key = `meta:msg:${uniqueId()}`;
    await postWebhook(app.baseUrl, metaText(key.slice('meta:msg:'.length)));
    await eventually(() => detail(key), (d) => d.destinations.length === 2 && d.destinations.every((x: any) => x.status === 'processed'));

    expect((await replay(`since=${since}&destination=archive&fromStart=true`)).body).toMatchObject({ replayed: 1, destination: 'archive' });
    await eventually(async () => sentTo('archive', `${key}:replay-1`), (n) => n === 1);
    const once = await eventually(() => detail(key), (d) => d.destinations.every((x: any) => x.status === 'processed'));
    expect(once).toMatchObject({ replays: 1, destinations: [{ destination: 'archive', replay: 1 }, { destination: 'crm', replay: 0 }] });
    expect([sentTo('archive', key), sentTo('crm', key), sentTo('crm', `${key}:replay-1`)]).toEqual([1, 1, 0]);

    expect((await replay(`since=${since}&fromStart=true&status=processed`)).body).toEqual(events(1));
    await eventually(async () => [sentTo('archive', `${key}:replay-2`), sentTo('crm', `${key}:replay-2`)], (n) => n.join() === '1,1');
  });
});
