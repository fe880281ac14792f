import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readMigrationFiles } from '../src/migrations/migration-files.js';
import { applyMigrations, UnsupportedMigrationError } from '../src/migrations/migrator.js';
import { eventually } from './support/eventually.js';
import { claim, migrationsWith, MIGRATOR, RecordingLog, useMigratedDatabase, within } from './support/migration-fixtures.js';
import { describeOnPostgres } from './support/test-database.js';

const TYPE_INDEX = '20990101000000_messages_type_index';
const TYPE_INDEX_SQL = '-- CreateIndex\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "messages_type_idx" ON "messages"("type");\n';
const UNIQUE_TYPE = '20990101000000_unique_type';
const UNIQUE_TYPE_SQL = 'CREATE UNIQUE INDEX CONCURRENTLY "messages_type_key" ON "messages"("type");\n';

const quiet = { log: () => undefined, warn: () => undefined };
const ctx = useMigratedDatabase();

const rowsOf = (name: string) => ctx.db.query('SELECT * FROM "_prisma_migrations" WHERE migration_name = $1 ORDER BY started_at', [name]);
const indexValid = async (name: string) =>
  (await ctx.db.query('SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)', [name]))[0]?.valid as boolean | undefined;
const insertEvent = (key: string, type: string) =>
  ctx.db.query(`INSERT INTO messages (message_id, provider, kind, type, payload) VALUES ($1, 'meta', 'message', $2, '{}')`, [key, type]);

describe('a migration whose only statement is CREATE/DROP INDEX CONCURRENTLY', () => {
  it('runs outside a transaction and is recorded exactly as prisma migrate deploy records it', async () => {
    const dir = await migrationsWith({ [TYPE_INDEX]: TYPE_INDEX_SQL });
    expect(await applyMigrations(ctx.db.url, quiet, dir)).toEqual([TYPE_INDEX]);

    const bytes = await readFile(join(dir, TYPE_INDEX, 'migration.sql'));
    const [row, ...more] = await rowsOf(TYPE_INDEX);
    expect(more).toEqual([]);
    expect(row.checksum).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(row).toMatchObject({ logs: null, rolled_back_at: null, applied_steps_count: 1 });
    expect(row.finished_at).toBeInstanceOf(Date);
    expect(row.finished_at.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
    expect(await indexValid('messages_type_idx')).toBe(true);

    const drop = '20990102000000_drop_type_index';
    const dropDir = await migrationsWith({ [TYPE_INDEX]: TYPE_INDEX_SQL, [drop]: 'DROP INDEX CONCURRENTLY IF EXISTS "messages_type_idx";\n' });
    expect(await applyMigrations(ctx.db.url, quiet, dropDir)).toEqual([drop]);
    expect(await indexValid('messages_type_idx')).toBeUndefined();
    expect(await rowsOf(drop)).toMatchObject([{ logs: null, applied_steps_count: 1 }]);
  });

  it('drops the invalid index a failed build left before building again (IF NOT EXISTS alone would keep it)', async () => {
    await insertEvent('meta:msg:a', 'text');
    await insertEvent('meta:msg:b', 'text');
    const dir = await migrationsWith({ [UNIQUE_TYPE]: UNIQUE_TYPE_SQL });
    await expect(applyMigrations(ctx.db.url, quiet, dir)).rejects.toThrow(/could not create unique index/);
    expect(await indexValid('messages_type_key')).toBe(false);
    const [failed] = await rowsOf(UNIQUE_TYPE);
    expect(failed).toMatchObject({ finished_at: null, rolled_back_at: null, applied_steps_count: 0 });
    expect(failed.logs).toMatch(/Database error code: 23505/);

    // The operator fixes the data and marks the failure rolled back, as `prisma migrate resolve --rolled-back` does.
    await ctx.db.query("DELETE FROM messages WHERE message_id = 'meta:msg:b'");
    await ctx.db.query('UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE id = $1', [failed.id]);
    const log = new RecordingLog();
    expect(await applyMigrations(ctx.db.url, log, dir)).toEqual([UNIQUE_TYPE]);
    expect(log.count(/dropping the invalid index messages_type_key/)).toBe(1);
    expect(await indexValid('messages_type_key')).toBe(true);
    expect((await rowsOf(UNIQUE_TYPE)).map((r) => [r.rolled_back_at !== null, r.finished_at !== null])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('refuses CONCURRENTLY among other statements before applying anything', async () => {
    const files = await readMigrationFiles();
    await ctx.db.query('DELETE FROM "_prisma_migrations" WHERE migration_name = $1', [files.at(-1)!.name]);
    const dir = await migrationsWith({ [TYPE_INDEX]: 'CREATE INDEX CONCURRENTLY "a_idx" ON "messages"("type");\nCREATE INDEX "b_idx" ON "messages"("sender");\n' });
    await expect(applyMigrations(ctx.db.url, quiet, dir)).rejects.toThrow(UnsupportedMigrationError);
    expect(await ctx.db.query('SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NULL')).toEqual([]);
    expect(await rowsOf(files.at(-1)!.name)).toEqual([]); // the pending migration before it did not run either
  });
});

describeOnPostgres('a CONCURRENTLY migration on a busy table', () => {
  it('waits for open writers without lock_timeout, never queues claims, and does not deadlock with instances waiting to migrate', async () => {
    const writer = await ctx.sessions.open();
    await writer.query('BEGIN');
    await claim(writer, 'meta:msg:open-transaction'); // an uncommitted write: the build must wait for it
    const dir = await migrationsWith({ [TYPE_INDEX]: TYPE_INDEX_SQL });
    const log = new RecordingLog();
    const migrating = applyMigrations(ctx.db.url, log, dir, { lockTimeoutMs: 200 });

    // The build waits on the writer for far longer than lock_timeout, and is not cancelled.
    await eventually(
      () => ctx.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND wait_event_type = 'Lock'
                  AND query LIKE '%CREATE INDEX CONCURRENTLY%' AND now() - query_start > interval '1 second'`, [MIGRATOR]),
      (rows) => rows[0].n === 1,
    );
    // Claims go through meanwhile: SHARE UPDATE EXCLUSIVE does not conflict with them.
    const claimer = await ctx.sessions.open();
    expect((await within(claim(claimer, 'meta:msg:during-build'), 2000, 'a claim during the build')).rows).toEqual([
      { message_id: 'meta:msg:during-build', inserted: true },
    ]);
    // An instance starting now polls for the migration lock; blocked in pg_advisory_lock() it
    // would hold a snapshot the build waits for, and one of the two would die in a deadlock.
    const secondLog = new RecordingLog();
    const second = applyMigrations(ctx.db.url, secondLog, dir);
    await eventually(() => ctx.db.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [MIGRATOR]), (rows) => rows[0].n === 2);
    // Connected is not yet waiting: the writer commits only once the second instance found the lock held.
    await eventually(async () => secondLog.count(/another process is applying migrations/), (n) => n === 1);

    await writer.query('COMMIT');
    expect(await migrating).toEqual([TYPE_INDEX]);
    expect(await second).toEqual([]);
    expect(secondLog.count(/another process is applying migrations/)).toBe(1);
    expect(log.count(/attempt|invalid/)).toBe(0); // one build, never cancelled
    expect(await indexValid('messages_type_idx')).toBe(true);
    expect(await rowsOf(TYPE_INDEX)).toMatchObject([{ logs: null, applied_steps_count: 1 }]);
  });
});
