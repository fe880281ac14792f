import { validateConfig } from './support/settings.js';
import { applyMigrations } from '../src/migrations/migrator.js';
import { Database } from '../src/database/database.js';
import { PrismaService } from '../src/prisma/prisma.service.js';
import type { LeasedEvent } from '../src/inbox/leased-event.js';
import { WorkQueueRepository } from '../src/inbox/work-queue.repository.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let prisma: PrismaService;
let queue: WorkQueueRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  await applyMigrations(db.url, { log: () => undefined, warn: () => undefined });
  prisma = new PrismaService(validateConfig({ DATABASE_URL: db.url, DB_POOL_SIZE: '12' }));
  queue = new WorkQueueRepository(new Database(prisma));
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});
beforeEach(() => db.query('DELETE FROM messages'));

let counter = 0;
async function insertEvents(count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, () => `generic:msg:q${++counter}`);
  await db.query(
    `INSERT INTO messages (message_id, provider, kind, type, payload)
     SELECT k, 'generic', 'message', 'text', '{"text":"hi"}'::jsonb FROM unnest($1::text[]) AS k`,
    [keys],
  );
  return keys;
}
/** Makes a lease run out without waiting for it. */
const expireLeases = () => db.query("UPDATE messages SET due_at = now() - interval '1 second' WHERE status = 'processing'");
const rowOf = async (key: string) => (await db.query('SELECT * FROM messages WHERE message_id = $1', [key]))[0];
const fail = async (key: string, leaseToken: string, error: string, delayMs: number, maxAttempts: number) =>
  (await queue.fail([{ key, leaseToken, step: 'test', error, delayMs }], maxAttempts)).get(key);
const record = (lease: LeasedEvent, step: string | null, finish: boolean) =>
  queue.record([{ key: lease.event.key, leaseToken: lease.leaseToken, attempt: lease.attempt, step, result: '{"ok":true}', finish }]);

describe('leasing', () => {
  it('gives each due event to exactly one of many concurrent workers', async () => {
    const keys = await insertEvents(200);
    const batches = await Promise.all(Array.from({ length: 6 }, (_, w) => queue.lease(50, 30, 5, `worker-${w}`)));
    const leased = batches.flatMap((b) => b.leased.map((l) => l.event.key));
    expect(leased.sort()).toEqual([...keys].sort());
    const [{ processing }] = await db.query("SELECT count(*)::int AS processing FROM messages WHERE status = 'processing' AND attempts = 1");
    expect(processing).toBe(200);
  });

  it('rebuilds the normalized event and the results of completed steps', async () => {
    const [key] = await insertEvents(1);
    await db.query("INSERT INTO message_steps (message_id, step, result, attempt) VALUES ($1, 'first', '{\"n\":1}', 1)", [key]);
    const { leased } = await queue.lease(10, 30, 5, 'w');
    expect(leased[0]).toMatchObject({
      event: { key, source: 'generic', kind: 'message', type: 'text', sender: null, fromMe: false, raw: { text: 'hi' } },
      attempt: 1,
      completed: { first: { n: 1 } },
    });
  });

  it('leaves a retry alone until it is due', async () => {
    const [key] = await insertEvents(1);
    const { leased } = await queue.lease(1, 30, 5, 'w');
    expect(await fail(key, leased[0].leaseToken, 'boom', 60_000, 5)).toBe('failed');
    expect((await queue.lease(10, 30, 5, 'w')).leased).toEqual([]);
    await db.query("UPDATE messages SET due_at = now() WHERE message_id = $1", [key]);
    expect((await queue.lease(10, 30, 5, 'w')).leased.map((l) => l.attempt)).toEqual([2]);
  });
});

describe('a worker that lost its lease', () => {
  it('cannot overwrite the result of the worker that took the event over', async () => {
    const [key] = await insertEvents(1);
    const [stale] = (await queue.lease(1, 30, 5, 'worker-a')).leased;
    await expireLeases(); // worker-a hung past its lease
    const [current] = (await queue.lease(1, 30, 5, 'worker-b')).leased;
    expect(current.attempt).toBe(2);
    expect(current.leaseToken).not.toBe(stale.leaseToken);
    expect((await rowOf(key)).last_error).toBe('lease expired: worker-a did not finish attempt 1');

    // worker-a wakes up: neither its step record, nor its failure, nor its finish lands.
    expect(await record(stale, 'forward', true)).toEqual(new Set());
    expect(await fail(key, stale.leaseToken, 'late failure', 10, 5)).toBe('lease-lost');
    expect(await queue.release([{ key, leaseToken: stale.leaseToken }])).toBe(0);
    expect(await db.query('SELECT * FROM message_steps WHERE message_id = $1', [key])).toEqual([]);
    expect(await rowOf(key)).toMatchObject({ status: 'processing', leased_by: 'worker-b', attempts: 2 });

    expect(await record(current, 'forward', true)).toEqual(new Set([key]));
    expect(await rowOf(key)).toMatchObject({ status: 'processed', lease_token: null, leased_by: null });
    const steps = await db.query('SELECT step, attempt FROM message_steps WHERE message_id = $1', [key]);
    expect(steps).toEqual([{ step: 'forward', attempt: 2 }]);
  });

  it('makes the event dead when the expired attempt was its last', async () => {
    const [key] = await insertEvents(1);
    await queue.lease(1, 30, 2, 'w1');
    await expireLeases();
    await queue.lease(1, 30, 2, 'w2');
    await expireLeases();
    expect(await queue.lease(1, 30, 2, 'w3')).toEqual({ leased: [], dead: [key] });
    expect(await rowOf(key)).toMatchObject({ status: 'dead', attempts: 2, lease_token: null, last_error: 'lease expired: w2 did not finish attempt 2' });
  });
});

describe('release at shutdown', () => {
  it('hands the event back at once without counting the interrupted attempt', async () => {
    const [key] = await insertEvents(1);
    const [lease] = (await queue.lease(1, 30, 5, 'w')).leased;
    await record(lease, 'first', false);
    expect(await queue.release([{ key, leaseToken: lease.leaseToken }])).toBe(1);
    expect(await rowOf(key)).toMatchObject({ status: 'received', attempts: 0, lease_token: null, leased_by: null });
    const [again] = (await queue.lease(1, 30, 5, 'w')).leased;
    expect(again).toMatchObject({ attempt: 1, completed: { first: { ok: true } } });
  });
});

describe('recording steps', () => {
  it('writes many events’ records in one statement, each only under its own lease', async () => {
    await insertEvents(3);
    const { leased } = await queue.lease(3, 30, 5, 'w');
    const [a, b, c] = leased;
    const owned = await queue.record([
      { key: a.event.key, leaseToken: a.leaseToken, attempt: 1, step: 'one', result: '1', finish: false },
      { key: b.event.key, leaseToken: b.leaseToken, attempt: 1, step: null, result: null, finish: true },
      { key: c.event.key, leaseToken: a.leaseToken, attempt: 1, step: 'one', result: '1', finish: true }, // wrong token
    ]);
    expect(owned).toEqual(new Set([a.event.key, b.event.key]));
    const statuses = await db.query('SELECT message_id, status FROM messages ORDER BY message_id');
    expect(Object.fromEntries(statuses.map((r) => [r.message_id, r.status]))).toEqual({
      [a.event.key]: 'processing', [b.event.key]: 'processed', [c.event.key]: 'processing',
    });
  });
});
