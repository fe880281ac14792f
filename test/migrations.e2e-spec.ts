import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, writeFile, cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MIGRATIONS_DIR, readMigrationFiles } from '../src/migrations/migration-files.js';
import { applyMigrations, FailedMigrationError } from '../src/migrations/migrator.js';
import { createTestDatabase, itOnPostgres, type TestDatabase } from './support/test-database.js';
import { startTestApp } from './support/test-app.js';

const quiet = { log: () => undefined, warn: () => undefined };
let db: TestDatabase;

beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await db.drop();
});

const bookkeeping = () =>
  db.query('SELECT * FROM "_prisma_migrations" ORDER BY started_at, migration_name');

describe('migrations applied by the service', () => {
  it('records every migration the way prisma migrate deploy does', async () => {
    const files = await readMigrationFiles();
    expect(await applyMigrations(db.url, quiet)).toEqual(files.map((f) => f.name));

    const rows = await bookkeeping();
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, row] of rows.entries()) {
      const bytes = await readFile(join(DEFAULT_MIGRATIONS_DIR, row.migration_name, 'migration.sql'));
      expect(row.checksum).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(row.checksum).toBe(files[i].checksum);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    const columns = await db.query(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns.map((c) => `${c.column_name}:${c.data_type}:${c.is_nullable}`)).toEqual([
      'id:character varying:NO',
      'checksum:character varying:NO',
      'finished_at:timestamp with time zone:YES',
      'migration_name:character varying:NO',
      'logs:text:YES',
      'rolled_back_at:timestamp with time zone:YES',
      'started_at:timestamp with time zone:NO',
      'applied_steps_count:integer:NO',
    ]);
  });

  it('is a no-op the second time', async () => {
    await applyMigrations(db.url, quiet);
    const before = await bookkeeping();
    expect(await applyMigrations(db.url, quiet)).toEqual([]);
    expect(await bookkeeping()).toEqual(before);
  });

  itOnPostgres('applies each migration once when several instances start at the same moment', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => applyMigrations(db.url, quiet)));
    const files = await readMigrationFiles();
    expect(results.filter((r) => r.length > 0)).toEqual([files.map((f) => f.name)]);
    expect(await bookkeeping()).toHaveLength(files.length);
  });

  it('records a failed migration and refuses to go on until it is resolved', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wdd-migrations-'));
    await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
    await mkdir(join(dir, '99999999999999_broken'));
    await writeFile(join(dir, '99999999999999_broken', 'migration.sql'), 'CREATE TABLE ok_part (id int);\nSELECT no_such_column FROM messages;\n');

    await expect(applyMigrations(db.url, quiet, dir)).rejects.toThrow(/no_such_column/);
    const failed = (await bookkeeping()).find((r) => r.migration_name === '99999999999999_broken');
    expect(failed).toMatchObject({ finished_at: null, rolled_back_at: null, applied_steps_count: 0 });
    expect(failed!.logs).toMatch(/no_such_column/);
    // One script, one transaction: the statement before the failure was rolled back too.
    expect(await db.query("SELECT to_regclass('ok_part') AS t")).toEqual([{ t: null }]);

    await expect(applyMigrations(db.url, quiet, dir)).rejects.toThrow(FailedMigrationError);
  });

  it('records the failure of a script that opened its own transaction, and keeps none of it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wdd-migrations-'));
    await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
    await mkdir(join(dir, '99999999999999_explicit'));
    await writeFile(join(dir, '99999999999999_explicit', 'migration.sql'), 'BEGIN;\nCREATE TABLE half (id int);\nSELECT no_such_column FROM messages;\nCOMMIT;\n');

    // The failure leaves the session inside the script's aborted transaction: it is rolled back
    // before the failure is recorded, or recording it would fail too.
    await expect(applyMigrations(db.url, quiet, dir)).rejects.toThrow(/no_such_column/);
    const failed = (await bookkeeping()).find((r) => r.migration_name === '99999999999999_explicit');
    expect(failed).toMatchObject({ finished_at: null, rolled_back_at: null, applied_steps_count: 0 });
    expect(failed!.logs).toMatch(/Database error code: 42703/);
    expect(await db.query("SELECT to_regclass('half') AS t")).toEqual([{ t: null }]);
  });

  it('upgrades a database that already holds events: they become due for the worker', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wdd-migrations-'));
    const [first] = await readMigrationFiles();
    await cp(join(DEFAULT_MIGRATIONS_DIR, first.name), join(dir, first.name), { recursive: true });
    await applyMigrations(db.url, quiet, dir);
    await db.query(`INSERT INTO messages (message_id, provider, kind, type, payload) VALUES ('meta:msg:old', 'meta', 'message', 'text', '{}')`);

    expect((await applyMigrations(db.url, quiet)).length).toBe((await readMigrationFiles()).length - 1);
    const [row] = await db.query("SELECT status, from_me, due_at <= now() AS due, lease_token FROM messages WHERE message_id = 'meta:msg:old'");
    expect(row).toEqual({ status: 'received', from_me: false, due: true, lease_token: null });
  });

  it('migrates at start by default, and not with MIGRATE_ON_START=false', async () => {
    const off = await startTestApp({ DATABASE_URL: db.url, MIGRATE_ON_START: 'false' });
    await off.close();
    expect(await db.query("SELECT to_regclass('messages') AS t")).toEqual([{ t: null }]);

    const on = await startTestApp({ DATABASE_URL: db.url });
    await on.close();
    expect(await db.query("SELECT to_regclass('messages')::text AS t")).toEqual([{ t: 'messages' }]);
  });
});
