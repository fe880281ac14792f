import { jest } from '@jest/globals';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import pg from 'pg';
import { validateConfig } from './support/settings.js';
import { Database } from '../src/database/database.js';
import type { ClaimRow } from '../src/messages/claim-row.js';
import { MessagesRepository } from '../src/messages/messages.repository.js';
import { MetricsService } from '../src/metrics/metrics.service.js';
import { applyMigrations } from '../src/migrations/migrator.js';
import { PrismaService } from '../src/prisma/prisma.service.js';
import { RetentionRepository } from '../src/retention/retention.repository.js';
import { RetentionService } from '../src/retention/retention.service.js';
import { CoreModule } from '../src/core.module.js';
import { eventually } from './support/eventually.js';
import { loadPrismaRuntime } from './support/test-app.js';
import { createTestDatabase, itOnPostgres, type TestDatabase } from './support/test-database.js';

/**
 * Retention against a real PostgreSQL. Ages are set in the database, relative to its now(),
 * the clock the purge measures with.
 */
let db: TestDatabase;
let prisma: PrismaService;
let database: Database;
let repository: RetentionRepository;
const DAYS = 8;

beforeAll(async () => {
  db = await createTestDatabase();
  await applyMigrations(db.url, { log: () => undefined, warn: () => undefined });
  prisma = new PrismaService(validateConfig({ DATABASE_URL: db.url }));
  database = new Database(prisma);
  repository = new RetentionRepository(database);
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});
beforeEach(async () => {
  await db.query('DELETE FROM messages');
  await db.query('DELETE FROM deliveries');
});
afterEach(() => jest.restoreAllMocks());

interface AgedEvent {
  key: string;
  status: 'received' | 'processing' | 'processed' | 'failed' | 'dead';
  /** Ages in days before the database's now(). */
  received: number;
  lastDuplicate?: number;
  /** Default for processed events: a second after arrival. */
  processed?: number;
  /** The last lease or retry time; default a minute after arrival (one lease). */
  due?: number;
}

async function insertEvents(events: AgedEvent[]): Promise<void> {
  await db.query(
    `INSERT INTO messages (message_id, provider, kind, type, payload, status, received_at, last_duplicate_at, processed_at, due_at)
     SELECT e.key, 'generic', 'message', 'text', '{}', e.status::message_status,
       now() - e.received * interval '1 day',
       now() - e.last_duplicate * interval '1 day',
       CASE WHEN e.status = 'processed'
         THEN coalesce(now() - e.processed * interval '1 day', now() - e.received * interval '1 day' + interval '1 second') END,
       coalesce(now() - e.due * interval '1 day', now() - e.received * interval '1 day' + interval '1 minute')
     FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::float8[], $6::float8[])
       AS e(key, status, received, last_duplicate, processed, due)`,
    [
      events.map((e) => e.key), events.map((e) => e.status), events.map((e) => e.received),
      events.map((e) => e.lastDuplicate ?? null), events.map((e) => e.processed ?? null), events.map((e) => e.due ?? null),
    ],
  );
}

/** `count` processed events `days` old, each with one recorded step. */
async function insertOldProcessed(count: number, prefix: string, days = 9): Promise<void> {
  await db.query(
    `INSERT INTO messages (message_id, provider, kind, type, payload, status, received_at, processed_at, due_at)
     SELECT $1 || g, 'generic', 'message', 'text', '{}', 'processed',
       now() - $2 * interval '1 day', now() - $2 * interval '1 day', now() - $2 * interval '1 day'
     FROM generate_series(1, $3::int) g`,
    [prefix, days, count],
  );
  await db.query(`INSERT INTO message_steps (message_id, step, attempt) SELECT message_id, 'forward', 1 FROM messages WHERE message_id LIKE $1 || '%'`, [prefix]);
}

async function insertReceipts(records: Array<{ wamid: string; created: number; updated: number }>): Promise<void> {
  await db.query(
    `INSERT INTO deliveries (wamid, provider, status, created_at, updated_at)
     SELECT w, 'meta', 'read', now() - c * interval '1 day', now() - u * interval '1 day'
     FROM unnest($1::text[], $2::float8[], $3::float8[]) AS d(w, c, u)`,
    [records.map((r) => r.wamid), records.map((r) => r.created), records.map((r) => r.updated)],
  );
}

const keys = async () => (await db.query('SELECT message_id FROM messages ORDER BY message_id')).map((r) => r.message_id as string);
const count = async (table: string) => (await db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

describe('the purge of finished events', () => {
  it('deletes processed and dead events `days` after they were last seen or worked on, and never an unfinished one', async () => {
    await insertEvents([
      { key: 'processed-9d', status: 'processed', received: 9 },
      { key: 'dead-9d', status: 'dead', received: 9 },
      { key: 'processed-8d1h', status: 'processed', received: DAYS + 1 / 24 },
      { key: 'processed-7d23h', status: 'processed', received: DAYS - 1 / 24 },
      { key: 'processed-7d', status: 'processed', received: 7 },
      // Redelivered 2 days ago: the provider may still retry it, the key must stay.
      { key: 'processed-9d-redelivered-2d', status: 'processed', received: 9, lastDuplicate: 2 },
      { key: 'processed-20d-redelivered-9d', status: 'processed', received: 20, lastDuplicate: 9 },
      // Retried or replayed long after arrival: counted from when it finished.
      { key: 'processed-20d-finished-3d', status: 'processed', received: 20, processed: 3, due: 3 },
      { key: 'dead-20d-died-1d', status: 'dead', received: 20, due: 1 },
      { key: 'received-30d', status: 'received', received: 30 },
      { key: 'processing-30d', status: 'processing', received: 30 },
      { key: 'failed-30d', status: 'failed', received: 30 },
    ]);
    await db.query(
      `INSERT INTO message_steps (message_id, step, attempt) VALUES
        ('processed-9d', 'forward', 1), ('processed-9d', 'auto-reply', 1), ('processed-7d', 'forward', 1), ('failed-30d', 'forward', 3)`,
    );

    expect(await repository.purgeFinishedEvents('processed', DAYS, 1000)).toBe(3);
    expect(await repository.purgeFinishedEvents('dead', DAYS, 1000)).toBe(1);

    expect(await keys()).toEqual([
      'dead-20d-died-1d', 'failed-30d', 'processed-20d-finished-3d', 'processed-7d', 'processed-7d23h', 'processed-9d-redelivered-2d',
      'processing-30d', 'received-30d',
    ]);
    // The steps of the purged events went with them (ON DELETE CASCADE); the others' stayed.
    expect(await db.query('SELECT message_id, step FROM message_steps ORDER BY message_id')).toEqual([
      { message_id: 'failed-30d', step: 'forward' },
      { message_id: 'processed-7d', step: 'forward' },
    ]);
    expect(await repository.purgeFinishedEvents('processed', DAYS, 1000)).toBe(0);
    expect(await repository.purgeFinishedEvents('dead', DAYS, 1000)).toBe(0);
    expect(await count('messages')).toBe(8);
  });

  it('deletes each status on its own clock: dead events only after DEAD_RETENTION_DAYS (30 here)', async () => {
    await insertEvents([
      { key: 'dead-9d', status: 'dead', received: 9 },
      { key: 'dead-29d', status: 'dead', received: 29 },
      { key: 'dead-31d', status: 'dead', received: 31 },
      { key: 'dead-40d-died-20d', status: 'dead', received: 40, due: 20 },
      { key: 'processed-9d', status: 'processed', received: 9 },
    ]);
    expect(await repository.purgeFinishedEvents('dead', 30, 1000)).toBe(1);
    expect(await keys()).toEqual(['dead-29d', 'dead-40d-died-20d', 'dead-9d', 'processed-9d']);
    expect(await repository.purgeFinishedEvents('processed', DAYS, 1000)).toBe(1);
    expect(await keys()).toEqual(['dead-29d', 'dead-40d-died-20d', 'dead-9d']);
  });

  it('keeps a processed event while a delivery to a destination is unfinished, or dead and still replayable', async () => {
    await insertEvents(['delivered', 'retrying', 'dead-lately', 'dead-long-ago'].map((key) => ({ key, status: 'processed' as const, received: 40 })));
    await db.query(
      `INSERT INTO destination_jobs (message_id, destination, status, due_at)
       VALUES ('delivered', 'crm', 'processed', now() - interval '40 days'), ('retrying', 'crm', 'failed', now() - interval '35 days'),
              ('dead-lately', 'crm', 'dead', now() - interval '20 days'), ('dead-long-ago', 'crm', 'dead', now() - interval '31 days'),
              ('delivered', 'bot', 'processed', now() - interval '40 days')`,
    );
    expect(await repository.purgeFinishedEvents('processed', DAYS, 1000, 30)).toBe(2);
    expect(await keys()).toEqual(['dead-lately', 'retrying']);
    expect(await count('destination_jobs')).toBe(2); // the purged events' deliveries went with them
  });

  it('measures age against the configured RETENTION_DAYS (30 here)', async () => {
    await insertEvents([
      { key: 'processed-20d', status: 'processed', received: 20 },
      { key: 'processed-40d', status: 'processed', received: 40 },
    ]);
    expect(await repository.purgeFinishedEvents('processed', 30, 1000)).toBe(1);
    expect(await keys()).toEqual(['processed-20d']);
  });

  it('deletes at most one batch per statement', async () => {
    await insertOldProcessed(25, 'generic:msg:b');
    expect(await repository.purgeFinishedEvents('processed', DAYS, 10)).toBe(10);
    expect(await repository.purgeFinishedEvents('processed', DAYS, 10)).toBe(10);
    expect(await repository.purgeFinishedEvents('processed', DAYS, 10)).toBe(5);
    expect(await repository.purgeFinishedEvents('processed', DAYS, 10)).toBe(0);
    expect(await count('message_steps')).toBe(0);
  });

  // Needs a second session holding row locks (the embedded PGlite has one backend for all connections).
  itOnPostgres('skips rows another transaction holds without waiting for it, and rechecks them once it commits', async () => {
    await insertOldProcessed(5, 'generic:msg:locked-');
    const operator = new pg.Client({ connectionString: db.url });
    await operator.connect();
    try {
      // An operator replays one old event and a redelivery of another is being claimed; neither has committed.
      await operator.query('BEGIN');
      await operator.query("UPDATE messages SET status = 'received', attempts = 0, processed_at = NULL, due_at = now() WHERE message_id = 'generic:msg:locked-1'");
      await operator.query("UPDATE messages SET duplicate_count = duplicate_count + 1, last_duplicate_at = now() WHERE message_id = 'generic:msg:locked-2'");
      // Returns while the operator's transaction is still open: it did not wait for it (waiting would never end).
      expect(await repository.purgeFinishedEvents('processed', DAYS, 1000)).toBe(3);
      await operator.query('COMMIT');
    } finally {
      await operator.end();
    }
    // Committed: one is unfinished again, the other was just redelivered. Both stay.
    expect(await repository.purgeFinishedEvents('processed', DAYS, 1000)).toBe(0);
    expect(await db.query('SELECT message_id, status FROM messages ORDER BY message_id')).toEqual([
      { message_id: 'generic:msg:locked-1', status: 'received' },
      { message_id: 'generic:msg:locked-2', status: 'processed' },
    ]);
  });

  it('keeps a key that is redelivered; once purged, the same key is accepted as a new event', async () => {
    const claims = new MessagesRepository(database);
    const row: ClaimRow = {
      key: 'meta:msg:wamid.late', source: 'meta', kind: 'message', type: 'text', sender: null, userId: null, tenant: null, providerTimestamp: null, fromMe: false,
      authenticated: true, payload: '{}', copies: 1,
    };
    await insertEvents([{ key: row.key, status: 'processed', received: 9 }]);

    // A redelivery 9 days after the first: a duplicate, and it restarts the key's retention.
    expect(await claims.claimBatch([row])).toEqual(new Set());
    expect(await repository.purgeFinishedEvents('processed', DAYS, 1000)).toBe(0);
    expect(await keys()).toEqual([row.key]);

    // RETENTION_DAYS without a redelivery: the key is purged...
    await db.query("UPDATE messages SET last_duplicate_at = now() - interval '9 days'");
    expect(await repository.purgeFinishedEvents('processed', DAYS, 1000)).toBe(1);
    // ...and a redelivery after that is new to the service: stored and processed again. This is
    // what a RETENTION_DAYS beyond the providers' retry window (Meta: 7 days) must make impossible.
    expect(await claims.claimBatch([row])).toEqual(new Set([row.key]));
    expect(await db.query('SELECT status, duplicate_count, processed_at FROM messages')).toEqual([
      { status: 'received', duplicate_count: 0, processed_at: null },
    ]);
  });
});

describe('the purge of receipts', () => {
  it('deletes records that have not changed for RETENTION_DAYS', async () => {
    await insertReceipts([
      { wamid: 'wamid.9d', created: 9, updated: 9 },
      { wamid: 'wamid.7d', created: 7, updated: 7 },
      { wamid: 'wamid.read-late', created: 30, updated: 1 },
    ]);
    expect(await repository.purgeReceipts(DAYS, 1000)).toBe(1);
    expect((await db.query('SELECT wamid FROM deliveries ORDER BY wamid')).map((r) => r.wamid)).toEqual(['wamid.7d', 'wamid.read-late']);
  });
});

describe('the retention job', () => {
  const contexts: INestApplicationContext[] = [];
  async function startContext(env: Record<string, string>): Promise<INestApplicationContext> {
    const saved = { ...process.env };
    Object.assign(process.env, { DATABASE_URL: db.url, LOG_LEVEL: 'silent', WORKER_ENABLED: 'false', RETENTION_ENABLED: 'false', ...env });
    try {
      const moduleRef = await Test.createTestingModule({ imports: [CoreModule] }).compile();
      await loadPrismaRuntime(moduleRef);
      const app = await moduleRef.init();
      contexts.push(app);
      return app;
    } finally {
      process.env = saved;
    }
  }
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });

  const purgedMetric = async (app: INestApplicationContext, table: string) => {
    const metric = app.get(MetricsService).registry.getSingleMetric('wdd_retention_purged_total')!;
    return (await metric.get()).values.find((v) => v.labels.table === table)?.value;
  };

  it('purges more rows than a batch, batch by batch, counting them in the metric and in one log line', async () => {
    const app = await startContext({ RETENTION_BATCH_SIZE: '1000' });
    await insertOldProcessed(2500, 'generic:msg:bulk-');
    await insertOldProcessed(3, 'generic:msg:recent-', 2);
    await insertReceipts(Array.from({ length: 1001 }, (_, i) => ({ wamid: `wamid.old-${i}`, created: 10, updated: 9 })));
    const events = jest.spyOn(app.get(RetentionRepository), 'purgeFinishedEvents');
    const receipts = jest.spyOn(app.get(RetentionRepository), 'purgeReceipts');
    const log = jest.spyOn(Logger.prototype, 'log');

    const run = await app.get(RetentionService).runOnce();

    expect(run).toMatchObject({ events: 2500, deadEvents: 0, receipts: 1001 });
    expect(await Promise.all(events.mock.results.map((r) => r.value))).toEqual([1000, 1000, 500, 0]);
    expect(events.mock.calls).toEqual([['processed', 8, 1000, 30], ['processed', 8, 1000, 30], ['processed', 8, 1000, 30], ['dead', 30, 1000]]);
    expect(await Promise.all(receipts.mock.results.map((r) => r.value))).toEqual([1000, 1]);
    expect(await count('messages')).toBe(3);
    expect(await count('message_steps')).toBe(3);
    expect(await count('deliveries')).toBe(0);
    expect(await purgedMetric(app, 'messages')).toBe(2500);
    expect(await purgedMetric(app, 'deliveries')).toBe(1001);
    const lines = log.mock.calls.filter(([message]) => String(message).startsWith('retention:'));
    expect(lines).toEqual([[expect.stringMatching(
      /^retention: purged 2500 processed events and 1001 receipts older than 8 days and 0 dead events older than 30 days in \d+ ms$/,
    )]]);
  });

  it('keeps a dead event past RETENTION_DAYS until DEAD_RETENTION_DAYS, so it can still be replayed', async () => {
    const app = await startContext({ RETENTION_DAYS: '8', DEAD_RETENTION_DAYS: '30' });
    await insertEvents([
      { key: 'generic:msg:dead-12d', status: 'dead', received: 12 }, // older than RETENTION_DAYS, younger than DEAD_RETENTION_DAYS
      { key: 'generic:msg:dead-45d', status: 'dead', received: 45 },
      { key: 'generic:msg:dead-45d-died-29d', status: 'dead', received: 45, due: 29 },
      { key: 'generic:msg:processed-12d', status: 'processed', received: 12 },
    ]);
    await db.query("INSERT INTO message_steps (message_id, step, attempt) VALUES ('generic:msg:dead-12d', 'delivery-status', 1)");

    expect(await app.get(RetentionService).runOnce()).toMatchObject({ events: 2, deadEvents: 1 });

    expect(await keys()).toEqual(['generic:msg:dead-12d', 'generic:msg:dead-45d-died-29d']);
    // Still whole: its completed step stays skipped when it is replayed.
    expect(await db.query('SELECT message_id, step FROM message_steps')).toEqual([{ message_id: 'generic:msg:dead-12d', step: 'delivery-status' }]);
  });

  it('run by two instances at once, deletes every row exactly once and without errors', async () => {
    const [a, b] = await Promise.all([startContext({ RETENTION_BATCH_SIZE: '100' }), startContext({ RETENTION_BATCH_SIZE: '100' })]);
    await insertOldProcessed(3000, 'generic:msg:shared-');
    await insertReceipts(Array.from({ length: 700 }, (_, i) => ({ wamid: `wamid.shared-${i}`, created: 9, updated: 9 })));

    const runs = await Promise.all([a.get(RetentionService).runOnce(), b.get(RetentionService).runOnce()]);

    expect(runs[0].events + runs[1].events).toBe(3000);
    expect(runs[0].receipts + runs[1].receipts).toBe(700);
    expect((await purgedMetric(a, 'messages'))! + (await purgedMetric(b, 'messages'))!).toBe(3000);
    expect(await count('messages')).toBe(0);
    expect(await count('message_steps')).toBe(0);
    expect(await count('deliveries')).toBe(0);
  });

  it('stops after the batch in progress when the application shuts down', async () => {
    const app = await startContext({ RETENTION_BATCH_SIZE: '100' });
    await insertOldProcessed(5000, 'generic:msg:long-');
    const batches = jest.spyOn(app.get(RetentionRepository), 'purgeFinishedEvents');
    const run = app.get(RetentionService).runOnce();
    await eventually(async () => batches.mock.calls.length, (n) => n >= 2);

    await app.close();
    contexts.splice(contexts.indexOf(app), 1);

    const { events } = await run;
    expect(events).toBe(batches.mock.calls.length * 100);
    expect(events).toBeLessThan(5000);
    expect(await count('messages')).toBe(5000 - events);
  });

  it('is scheduled at start by default (RETENTION_ENABLED=true) and leaves no timer behind at shutdown', async () => {
    const log = jest.spyOn(Logger.prototype, 'log');
    const app = await startContext({ RETENTION_ENABLED: 'true', RETENTION_INTERVAL_MINUTES: '5' });
    expect(log.mock.calls.filter(([m]) => String(m).startsWith('retention:'))).toEqual([
      ['retention: processed events and receipts older than 8 days, and dead events older than 30 days, are purged every 5 min'],
    ]);
    const started = Date.now();
    await app.close();
    contexts.splice(contexts.indexOf(app), 1);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
