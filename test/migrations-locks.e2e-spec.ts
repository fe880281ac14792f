import pg from 'pg';
import { applyMigrations, FailedMigrationError, MigrationFailedError } from '../src/migrations/migrator.js';
import { claim, MIGRATION_LOCK_HOLDER, migrationsWith, MIGRATOR, RecordingLog, useMigratedDatabase, WAITING_ON_MESSAGES, within } from './support/migration-fixtures.js';
import { eventually } from './support/eventually.js';
import { describeOnPostgres } from './support/test-database.js';

// A migration that needs ACCESS EXCLUSIVE on the busy table: the case lock_timeout is for.
const ADD_COLUMN = '20990101000000_add_note';
const ADD_COLUMN_SQL = '-- AlterTable\nALTER TABLE "messages" ADD COLUMN "note" TEXT;\n';
const LOCK_TIMEOUT_MS = 1000;

const quiet = { log: () => undefined, warn: () => undefined };
const ctx = useMigratedDatabase();

const rowsOf = (name: string) => ctx.db.query('SELECT * FROM "_prisma_migrations" WHERE migration_name = $1', [name]);
const hasNote = async () => (await ctx.db.query(`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'messages' AND column_name = 'note'`))[0].n === 1;

/** An open transaction that read `messages`: ACCESS SHARE, which ALTER TABLE must wait for. */
async function blocker(): Promise<pg.Client> {
  const session = await ctx.sessions.open();
  await session.query('BEGIN');
  await session.query('LOCK TABLE messages IN ACCESS SHARE MODE');
  return session;
}

describeOnPostgres('a migration on a table another session holds', () => {
  it('times out instead of queueing claims, retries under the same advisory lock, and applies once the blocker is gone', async () => {
    const dir = await migrationsWith({ [ADD_COLUMN]: ADD_COLUMN_SQL });
    const holder = await blocker();
    const log = new RecordingLog();
    const migrating = applyMigrations(ctx.db.url, log, dir, { lockTimeoutMs: LOCK_TIMEOUT_MS, maxAttempts: 5, retryDelayMs: 100 });

    // The migration's ACCESS EXCLUSIVE request waits behind the blocker...
    await eventually(() => ctx.db.query(WAITING_ON_MESSAGES), (rows) => rows.some((r) => r.app === MIGRATOR && r.mode === 'AccessExclusiveLock'));
    // ...and a claim arriving now queues behind that request. It must get through within about
    // lock_timeout, while the blocker still holds its lock (without lock_timeout it would wait
    // for the blocker, however long that takes).
    const claimer = await ctx.sessions.open();
    const started = Date.now();
    const claiming = claim(claimer, 'meta:msg:during-migration');
    const queued = eventually(() => ctx.db.query(WAITING_ON_MESSAGES), (rows) => rows.some((r) => r.app === '' && r.mode === 'RowExclusiveLock'));
    const claimed = await within(claiming, 10_000, 'the claim behind the waiting migration');
    const waitedMs = Date.now() - started;
    await queued; // it really was queued behind the migration's request, not merely fast
    expect(claimed.rows).toEqual([{ message_id: 'meta:msg:during-migration', inserted: true }]);
    expect(waitedMs).toBeLessThan(LOCK_TIMEOUT_MS + 1500);

    await log.seen(/lock timeout \[55P03\] \(attempt 1 of 5\)/);
    // Between attempts: the advisory lock is still the migrator's, the row is started but not
    // marked failed, and another instance starting now waits instead of applying anything.
    expect((await ctx.db.query(MIGRATION_LOCK_HOLDER)).map((r) => r.app)).toEqual([MIGRATOR]);
    expect(await rowsOf(ADD_COLUMN)).toMatchObject([{ finished_at: null, logs: null, rolled_back_at: null, applied_steps_count: 0 }]);
    const secondLog = new RecordingLog();
    const second = applyMigrations(ctx.db.url, secondLog, dir);
    await secondLog.seen(/another process is applying migrations/);
    expect(await hasNote()).toBe(false);

    await holder.query('COMMIT');
    expect(await migrating).toEqual([ADD_COLUMN]);
    expect(await second).toEqual([]);
    expect(await hasNote()).toBe(true);
    const [row, ...more] = await rowsOf(ADD_COLUMN);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ logs: null, rolled_back_at: null, applied_steps_count: 1 });
    expect(row.finished_at).toBeInstanceOf(Date);
  });

  it('without a lock_timeout the same claim waits for as long as the blocker holds (what this change prevents)', async () => {
    const dir = await migrationsWith({ [ADD_COLUMN]: ADD_COLUMN_SQL });
    const holder = await blocker();
    const migrating = applyMigrations(ctx.db.url, quiet, dir, { lockTimeoutMs: 0 });
    await eventually(() => ctx.db.query(WAITING_ON_MESSAGES), (rows) => rows.some((r) => r.app === MIGRATOR));
    const claimer = await ctx.sessions.open();
    const claimed = claim(claimer, 'meta:msg:stuck');
    // Queued behind the migration's request, and still there after well over the timeout above.
    await eventually(() => ctx.db.query(WAITING_ON_MESSAGES), (rows) => rows.some((r) => r.app === '' && r.mode === 'RowExclusiveLock'));
    await eventually(
      () => ctx.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND now() - query_start > interval '2 seconds' AND query LIKE 'INSERT INTO messages%'`),
      (rows) => rows[0].n === 1,
    );
    await holder.query('COMMIT');
    await Promise.all([migrating, claimed]);
  });

  it('records the last failure as Prisma does and blocks later runs when the lock never comes', async () => {
    const dir = await migrationsWith({ [ADD_COLUMN]: ADD_COLUMN_SQL });
    const holder = await blocker();
    const log = new RecordingLog();

    const failure = await applyMigrations(ctx.db.url, log, dir, { lockTimeoutMs: 200, maxAttempts: 3, retryDelayMs: 50 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MigrationFailedError);
    expect((failure as Error).message).toMatch(/failed 3 times .*lock timeout/);
    expect(log.count(/attempt \d of 3/)).toBe(2);

    const rows = await rowsOf(ADD_COLUMN);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ finished_at: null, rolled_back_at: null, applied_steps_count: 0 });
    expect(rows[0].logs).toMatch(/^A migration failed to apply\./);
    expect(rows[0].logs).toMatch(/Migration name: 20990101000000_add_note\n\nDatabase error code: 55P03\n\nDatabase error:\nERROR: canceling statement due to lock timeout/);
    expect(rows[0].logs).toMatch(/Gave up after 3 attempts \(lock_timeout 200 ms\)/);
    expect(await hasNote()).toBe(false);
    expect(await ctx.db.query(MIGRATION_LOCK_HOLDER)).toEqual([]);

    await holder.query('COMMIT');
    await expect(applyMigrations(ctx.db.url, quiet, dir)).rejects.toThrow(FailedMigrationError);
    expect(await hasNote()).toBe(false);
  });
});
