import { metaBatch, metaText, uniqueId } from './support/payloads.js';
import { postWebhook, useServiceWithDatabase } from './support/test-app.js';

const ctx = useServiceWithDatabase();
const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${ctx.service.baseUrl}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as any };
};

let batchKeys: string[] = [];
beforeAll(async () => {
  const { payload, keys } = metaBatch(300);
  expect((await postWebhook(ctx.service.baseUrl, payload)).body.accepted).toBe(300);
  batchKeys = keys;
  await postWebhook(ctx.service.baseUrl, { event: 'message', id: 'g-1', from: '4915100000001', type: 'text', text: 'hi' });
});

describe('GET /messages', () => {
  it('lists newest first, 50 by default, without payloads', async () => {
    const { status, body } = await get('/messages');
    expect(status).toBe(200);
    expect(body.items).toHaveLength(50);
    expect(body.items[0]).toMatchObject({ id: 'generic:msg:g-1', provider: 'generic', from: '4915100000001', status: 'received' });
    expect(body.items[0]).not.toHaveProperty('payload');
    const times = body.items.map((i: { receivedAt: string }) => Date.parse(i.receivedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(typeof body.nextCursor).toBe('string');
  });

  it('pages through everything while new events arrive: no item twice, none that existed skipped', async () => {
    const existing = (await ctx.db.query('SELECT message_id FROM messages')).map((r) => r.message_id as string);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      // New events land between every two pages.
      await postWebhook(ctx.service.baseUrl, metaText(uniqueId()));
      const { body } = await get(`/messages?limit=37${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...body.items.map((i: { id: string }) => i.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor !== null && pages < 50);
    expect(new Set(seen).size).toBe(seen.length);
    expect(existing.filter((id) => !seen.includes(id))).toEqual([]);
    expect(seen.length - existing.length).toBeLessThanOrEqual(1); // only the event posted before page 1 can be newer
  });

  it('filters by status, provider, kind, type, from and time', async () => {
    const dead = batchKeys.slice(0, 7);
    await ctx.db.query("UPDATE messages SET status = 'dead' WHERE message_id = ANY($1)", [dead]);
    expect((await get('/messages?status=dead&limit=200')).body.items.map((i: { id: string }) => i.id).sort()).toEqual([...dead].sort());
    const statuses = (await get('/messages?kind=status&provider=meta&type=delivered&limit=200')).body.items;
    expect(statuses).toHaveLength(30);
    expect(statuses.every((i: { kind: string; type: string }) => i.kind === 'status' && i.type === 'delivered')).toBe(true);
    expect((await get('/messages?from=4915100000001')).body.items.map((i: { id: string }) => i.id)).toEqual(['generic:msg:g-1']);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await get(`/messages?since=${future}`)).body).toEqual({ items: [], nextCursor: null });
    expect((await get('/messages?until=2000-01-01T00:00:00Z')).body.items).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=ten', 'limit'],
    ['status=lost', 'status'],
    ['provider=telegram', 'provider'],
    ['since=yesterday', 'since'],
    // Week dates, dates alone and date-times without an offset: a day, or an instant that depends on the server's zone.
    ['since=2026-W48', 'since'],
    ['since=2026-11-29', 'since'],
    ['since=2026-11-29T00:00:00', 'since'],
    ['until=2026-11-29T00:00Z', 'until'],
    ['until=2026-02-30T00:00:00Z', 'until'],
    ['until=2026-11-29T24:00:00Z', 'until'],
    ['since=2026-11-29T00:00:00Z&since=2026-11-30T00:00:00Z', 'since'],
    ['colour=red', 'colour'],
    ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const { status, body } = await get(`/messages?${query}`);
    expect(status).toBe(400);
    expect(JSON.stringify(body.message)).toContain(name);
  });
});

describe('GET /messages since/until', () => {
  const ids = async (query: string) => {
    const { status, body } = await get(`/messages?${query}`);
    expect(status).toBe(200);
    return body.items.map((i: { id: string }) => i.id);
  };
  const at = (iso: string) => encodeURIComponent(iso);

  it('compare instants exactly, to PostgreSQL’s microsecond, whatever the offset they are written in', async () => {
    const id = uniqueId('window');
    await postWebhook(ctx.service.baseUrl, { event: 'message', id, from: '4915100000002', type: 'text' });
    // Alone in its second: nothing else was received in 2001.
    await ctx.db.query("UPDATE messages SET received_at = '2001-02-03T04:05:06.123456Z' WHERE message_id = $1", [`generic:msg:${id}`]);
    const key = [`generic:msg:${id}`];

    expect(await ids(`since=${at('2001-02-03T04:05:06.123456Z')}&until=${at('2001-02-03T04:05:07Z')}`)).toEqual(key); // since is inclusive
    expect(await ids(`since=${at('2001-02-03T06:05:06.123456+02:00')}&until=${at('2001-02-03T04:05:07Z')}`)).toEqual(key);
    expect(await ids(`since=${at('2001-02-03T04:05:06.1234561Z')}&until=${at('2001-02-03T04:05:07Z')}`)).toEqual([]); // a tenth of a µs later
    expect(await ids(`since=${at('2001-02-03T03:05:06.123457-01:00')}&until=${at('2001-02-03T04:05:07Z')}`)).toEqual([]);
    expect(await ids(`since=${at('2001-02-03T04:05:06Z')}&until=${at('2001-02-03T04:05:06.123456Z')}`)).toEqual([]); // until is exclusive
    expect(await ids(`since=${at('2001-02-03T04:05:06Z')}&until=${at('2001-02-03T04:05:06.1234561Z')}`)).toEqual(key);
    expect(await ids(`since=${at('2001-02-03T04:05:06Z')}&until=${at('2001-02-03T13:05:06.124+09:00')}`)).toEqual(key);
  });

  it('names the + of an offset that arrived unencoded (a space)', async () => {
    const { status, body } = await get('/messages?since=2026-11-29T00:00:00+02:00');
    expect(status).toBe(400);
    expect(JSON.stringify(body.message)).toContain('since must be an ISO 8601 (RFC 3339) date-time with seconds and an offset or Z');
    expect(JSON.stringify(body.message)).toContain('write + as %2B');
    expect((await get(`/messages?since=${at('2026-11-29T00:00:00+02:00')}`)).status).toBe(200);
  });
});

describe('GET /messages/stats', () => {
  it('counts by status, provider and kind, with duplicates and the oldest unfinished event', async () => {
    const wamid = uniqueId();
    await postWebhook(ctx.service.baseUrl, metaText(wamid));
    await postWebhook(ctx.service.baseUrl, metaText(wamid));
    const { body } = await get('/messages/stats');
    const [db] = await ctx.db.query(`SELECT count(*)::int AS total, sum(duplicate_count)::int AS dups,
      count(*) FILTER (WHERE status = 'dead')::int AS dead, count(*) FILTER (WHERE provider = 'generic')::int AS generic,
      count(*) FILTER (WHERE kind = 'status')::int AS statuses FROM messages`);
    expect(body).toMatchObject({ total: db.total, duplicatesSuppressed: db.dups, dead: db.dead });
    expect(body.byProvider.generic).toBe(db.generic);
    expect(body.byKind.status).toBe(db.statuses);
    expect(Object.values(body.byStatus as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(db.total);
    expect(body.duplicatesSuppressed).toBeGreaterThanOrEqual(1);
    expect(body.oldestUnprocessedAgeSeconds).toBeGreaterThan(0);
  });
});

describe('GET /messages/{id} and /deliveries/{wamid}', () => {
  it('answers 404 for an unknown key, also URL-encoded ones', async () => {
    expect((await get(`/messages/${encodeURIComponent('meta:msg:nope/1')}`)).status).toBe(404);
    expect((await get('/deliveries/wamid.nope')).status).toBe(404);
  });
});

describe('GET /messages/activity', () => {
  it('counts the events of the last hour per minute, source and tenant, and validates its query', async () => {
    const { status, body } = await get('/messages/activity');
    expect(status).toBe(200);
    expect(body).toMatchObject({ range: 'hour', bucketSeconds: 60 });
    expect(body.buckets).toHaveLength(60);
    const [{ n }] = await ctx.db.query("SELECT count(*)::int AS n FROM messages WHERE received_at >= now() - interval '59 minutes'");
    expect(body.totals.accepted).toBe(n);
    expect(body.buckets.reduce((sum: number, b: { accepted: number }) => sum + b.accepted, 0)).toBe(n);
    expect(body.bySource.reduce((sum: number, s: { accepted: number }) => sum + s.accepted, 0)).toBe(n);
    expect(body.bySource.map((s: { provider: string }) => s.provider)).toEqual(expect.arrayContaining(['meta', 'generic']));
    const [{ duplicates }] = await ctx.db.query("SELECT sum(duplicate_count)::int AS duplicates FROM messages WHERE received_at >= now() - interval '59 minutes'");
    expect(body.totals.duplicates).toBe(duplicates);
    expect(Date.parse(body.buckets[59].start)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(body.to)).toBeGreaterThan(Date.now() - 1000);

    const generic = (await get('/messages/activity?range=week&provider=generic')).body;
    expect(generic.buckets).toHaveLength(168);
    expect(generic.bySource).toEqual([expect.objectContaining({ provider: 'generic' })]);
    expect((await get('/messages/activity?range=day&tenant=no-such-tenant')).body.totals).toEqual({ accepted: 0, duplicates: 0, processed: 0, failed: 0, dead: 0 });

    const wrong = await get('/messages/activity?range=month');
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toMatch(/range/);
  });
});

