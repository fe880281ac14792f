import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDownstream, type Downstream } from './support/downstream.js';
import { eventually } from './support/eventually.js';
import { metaText, uniqueId } from './support/payloads.js';
import { postWebhook, startTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// ordering: conversation, across two services' workers, with events arriving out of order.
let db: TestDatabase;
let downstream: Downstream;
let apps: TestApp[] = [];
/** Per request: when it arrived and when it was answered (the downstream answers after 40 ms). */
const answeredAt = new Map<string, number>();

beforeAll(async () => {
  db = await createTestDatabase();
  downstream = await startDownstream((_n, req) => {
    const poisoned = req.body.includes('"poison"');
    // A head that takes seconds to answer holds its conversation all that time.
    const delayMs = req.body.includes('"slowhead"') ? 4000 : 40;
    setTimeout(() => answeredAt.set(req.headers['idempotency-key'] as string, Date.now()), delayMs).unref();
    return { status: poisoned ? 500 : 200, delayMs };
  });
  const dir = mkdtempSync(join(tmpdir(), 'wdd-order-'));
  writeFileSync(join(dir, 'destinations.yaml'), `
destinations:
  - name: bot
    url: ${downstream.url}
    ordering: conversation
    reorderWindow: 500ms
    maxAttempts: 2
`);
  const env = { DATABASE_URL: db.url, WORKER_ENABLED: 'true', WORKER_CONCURRENCY: '8', RETRY_BASE_MS: '100', RETRY_MAX_MS: '200', DESTINATIONS_FILE: join(dir, 'destinations.yaml') };
  apps = [await startTestApp(env), await startTestApp(env)];
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await downstream?.close();
  await db?.drop();
});

interface Sent {
  key: string;
  user: string;
  timestamp: number;
}

/** A message from `user` with the given source's time (seconds), to business number `tenant` when given. */
function message(user: string, timestamp: number, body = 'hi', tenant?: string): { payload: unknown; sent: Sent } {
  const wamid = uniqueId();
  const payload = metaText(wamid, body);
  const value = payload.entry[0].changes[0].value;
  if (tenant !== undefined) value.metadata.phone_number_id = tenant;
  Object.assign(value.messages[0], { from: user, timestamp: String(timestamp) });
  value.contacts[0].wa_id = user;
  return { payload, sent: { key: `meta:msg:${wamid}`, user, timestamp } };
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

describe('per-conversation order', () => {
  it('sends each conversation one at a time, the earliest-timestamped unfinished event first, conversations in parallel', async () => {
    const users = ['15550000001', '15550000002', '15550000003', '15550000004', '15550000005'];
    const events = users.flatMap((user) => Array.from({ length: 10 }, (_, i) => message(user, 1_800_000_000 + i)));
    // Held back (as a Retry-After would) while every event arrives, out of order, concurrently, through both
    // services and is fanned out; then released to both services' workers at once.
    await db.query("UPDATE destination_state SET paused_until = now() + interval '1 hour' WHERE destination = 'bot'");
    await Promise.all(shuffle([...events]).map(({ payload }, i) => postWebhook(apps[i % 2].baseUrl, payload)));
    await eventually(async () => (await db.query("SELECT count(*)::int AS n FROM destination_jobs WHERE destination = 'bot'"))[0].n, (n) => n === events.length);
    expect(downstream.requests).toHaveLength(0);
    await db.query("UPDATE destination_state SET paused_until = NULL WHERE destination = 'bot'");
    await eventually(async () => events.filter((e) => answeredAt.has(e.sent.key)).length, (n) => n === events.length, 30_000);

    const receivedAt = new Map((await db.query('SELECT message_id, received_at FROM messages')).map((r) => [r.message_id as string, (r.received_at as Date).getTime()]));
    const arrival = new Map(downstream.requests.map((r) => [r.headers['idempotency-key'] as string, r.at]));
    for (const user of users) {
      const conversation = events.map((e) => e.sent).filter((s) => s.user === user).sort((a, b) => arrival.get(a.key)! - arrival.get(b.key)!);
      // One at a time: each starts after the previous one was answered.
      for (let i = 1; i < conversation.length; i++) expect(arrival.get(conversation[i].key)!).toBeGreaterThanOrEqual(answeredAt.get(conversation[i - 1].key)! - 5);
      // Never before an earlier-timestamped event that had already arrived when it was sent.
      for (const sent of conversation) {
        const overtaken = conversation.filter((e) => e.timestamp < sent.timestamp && receivedAt.get(e.key)! < arrival.get(sent.key)! - 50 && arrival.get(e.key)! > arrival.get(sent.key)!);
        expect(overtaken).toEqual([]);
      }
    }
    // Every event had arrived before its conversation began: the exact order.
    const orderOf = (user: string) => downstream.requests.filter((r) => JSON.parse(r.body).from === user).map((r) => JSON.parse(r.body).timestamp);
    for (const user of users) expect(orderOf(user)).toEqual([...orderOf(user)].sort());
    // Conversations proceeded side by side.
    const spans = downstream.requests.map((r) => [r.at, answeredAt.get(r.headers['idempotency-key'] as string)!]);
    const busiest = Math.max(...spans.map(([start]) => spans.filter(([s, e]) => s <= start && start < e).length));
    expect(busiest).toBeGreaterThan(1);
  });

  it('lets an event that arrives a moment late overtake a later one still held by the reorder window', async () => {
    const later = message('15550000077', 1_800_000_201);
    const earlier = message('15550000077', 1_800_000_200);
    await postWebhook(apps[0].baseUrl, later.payload);
    await postWebhook(apps[1].baseUrl, earlier.payload); // well within the 500 ms window
    await eventually(async () => answeredAt.has(later.sent.key), Boolean);
    const order = downstream.requests.filter((r) => [later.sent.key, earlier.sent.key].includes(r.headers['idempotency-key'] as string));
    expect(order.map((r) => r.headers['idempotency-key'])).toEqual([earlier.sent.key, later.sent.key]);
  });

  it('never sends a reaction or an edit before the message it is about, even when they came first with the same time', async () => {
    const target = message('15550000066', 1_800_000_300);
    const targetId = target.sent.key.slice('meta:msg:'.length);
    const referring = (type: string, body: object) => {
      const event = message('15550000066', 1_800_000_300);
      const item = (event.payload as any).entry[0].changes[0].value.messages[0];
      delete item.text;
      Object.assign(item, { type, [type]: body });
      return event;
    };
    const reaction = referring('reaction', { message_id: targetId, emoji: '👍' });
    const edit = referring('edit', { original_message_id: targetId, message: { type: 'text', text: { body: 'fixed' } } });
    await Promise.all([postWebhook(apps[0].baseUrl, reaction.payload), postWebhook(apps[1].baseUrl, edit.payload)]);
    await postWebhook(apps[1].baseUrl, target.payload);
    await eventually(async () => answeredAt.has(reaction.sent.key) && answeredAt.has(edit.sent.key), Boolean);
    const keys = [target.sent.key, reaction.sent.key, edit.sent.key];
    const order = downstream.requests.map((r) => r.headers['idempotency-key'] as string).filter((key) => keys.includes(key));
    expect(order[0]).toBe(target.sent.key);
    expect(order.slice(1).sort()).toEqual([reaction.sent.key, edit.sent.key].sort());
  });

  it('lets a failing head hold only its own conversation, until it is dead; then the next one goes', async () => {
    const stuck = message('15550000099', 1_800_000_100, 'poison');
    const after = message('15550000099', 1_800_000_101);
    const other = message('15550000098', 1_800_000_100);
    await postWebhook(apps[0].baseUrl, stuck.payload);
    await postWebhook(apps[0].baseUrl, after.payload);
    await postWebhook(apps[1].baseUrl, other.payload);
    await eventually(async () => answeredAt.has(after.sent.key), Boolean, 20_000);
    const [dead] = await db.query("SELECT status, attempts, due_at FROM destination_jobs WHERE message_id = $1", [stuck.sent.key]);
    expect(dead).toMatchObject({ status: 'dead', attempts: 2 });
    const tries = downstream.requests.filter((r) => r.headers['idempotency-key'] === stuck.sent.key).map((r) => r.at);
    const next = downstream.requests.find((r) => r.headers['idempotency-key'] === after.sent.key)!;
    expect(next.at).toBeGreaterThan(Math.max(...tries)); // held until the head was dead
    const unrelated = downstream.requests.find((r) => r.headers['idempotency-key'] === other.sent.key)!;
    expect(unrelated.at).toBeLessThan(Math.max(...tries)); // another conversation was not held
    // The dead head shows that the order broke there; the event that went on does not.
    const deliveryOf = async (key: string) =>
      ((await (await fetch(`${apps[0].baseUrl}/messages/${encodeURIComponent(key)}`)).json()) as any).destinations[0];
    expect(await deliveryOf(stuck.sent.key)).toMatchObject({ status: 'dead', brokeOrder: true });
    expect(await deliveryOf(after.sent.key)).toMatchObject({ status: 'processed', brokeOrder: false });
  });

  it("keeps ordering inside a tenant: a stuck head in tenant A does not hold the same user's conversation in tenant B", async () => {
    const user = '15550000097';
    const head = message(user, 1_800_000_200, 'slowhead', '1000000000000001');
    const sameTenant = message(user, 1_800_000_201, 'hi', '1000000000000001');
    const otherTenant = message(user, 1_800_000_201, 'hi', '1000000000000002');
    await postWebhook(apps[0].baseUrl, head.payload);
    await eventually(async () => downstream.requests.some((r) => r.headers['idempotency-key'] === head.sent.key), Boolean);
    await postWebhook(apps[1].baseUrl, sameTenant.payload);
    await postWebhook(apps[1].baseUrl, otherTenant.payload);
    await eventually(async () => answeredAt.has(sameTenant.sent.key), Boolean, 20_000);
    // Tenant B's event went while tenant A's head was still in flight; A's next one waited for it.
    expect(answeredAt.get(otherTenant.sent.key)!).toBeLessThan(answeredAt.get(head.sent.key)!);
    const sent = (key: string) => downstream.requests.find((r) => r.headers['idempotency-key'] === key)!.at;
    expect(sent(sameTenant.sent.key)).toBeGreaterThanOrEqual(answeredAt.get(head.sent.key)! - 5);
  });
});
