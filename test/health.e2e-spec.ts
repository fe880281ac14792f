import { readMigrationFiles } from '../src/migrations/migration-files.js';
import { applyMigrations } from '../src/migrations/migrator.js';
import { useServiceWithDatabase } from './support/test-app.js';

interface Answer {
  status: number;
  body: any;
}

async function get(baseUrl: string, path: string): Promise<Answer> {
  const res = await fetch(`${baseUrl}${path}`);
  return { status: res.status, body: await res.json() };
}

const quiet = { log: () => undefined, warn: () => undefined };
let committed: string[];

beforeAll(async () => {
  committed = (await readMigrationFiles()).map((m) => m.name);
  expect(committed.length).toBeGreaterThan(0);
});

describe('GET /health and /health/ready on a migrated database', () => {
  const ctx = useServiceWithDatabase();

  it('liveness answers 200 in terminus format', async () => {
    const live = await get(ctx.service.baseUrl, '/health');
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ status: 'ok', details: { event_loop: { status: 'up' } } });
    expect(live.body.details).not.toHaveProperty('database');
  });

  it('readiness answers 200 with the database and the migrations up', async () => {
    const ready = await get(ctx.service.baseUrl, '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: 'ok',
      details: { database: { status: 'up' }, migrations: { status: 'up', applied: committed.length } },
    });
  });

  it('keeps the all-applied answer (migrations do not un-apply) but asks the database every time', async () => {
    expect((await get(ctx.service.baseUrl, '/health/ready')).status).toBe(200);
    // Were the bookkeeping read again, every migration would now look pending.
    await ctx.db.query('ALTER TABLE "_prisma_migrations" RENAME TO "_prisma_migrations_hidden"');
    try {
      const ready = await get(ctx.service.baseUrl, '/health/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.details.migrations).toMatchObject({ status: 'up' });
    } finally {
      await ctx.db.query('ALTER TABLE "_prisma_migrations_hidden" RENAME TO "_prisma_migrations"');
    }
  });
});

describe('a service started with MIGRATE_ON_START=false on an empty database', () => {
  const ctx = useServiceWithDatabase({ MIGRATE_ON_START: 'false' });

  it('is live but not ready, naming every pending migration, until they are applied', async () => {
    expect((await get(ctx.service.baseUrl, '/health')).status).toBe(200);

    const before = await get(ctx.service.baseUrl, '/health/ready');
    expect(before.status).toBe(503);
    expect(before.body.status).toBe('error');
    expect(before.body.details.database).toMatchObject({ status: 'up' });
    expect(before.body.error).toEqual({
      migrations: { status: 'down', pending: committed, message: expect.stringMatching(/not applied/) },
    });
    // Checking does not create the bookkeeping table: readiness only reads.
    expect(await ctx.db.query(`SELECT to_regclass('"_prisma_migrations"') AS t`)).toEqual([{ t: null }]);

    expect(await applyMigrations(ctx.db.url, quiet)).toEqual(committed);

    const after = await get(ctx.service.baseUrl, '/health/ready');
    expect(after.status).toBe(200);
    expect(after.body.details).toMatchObject({ database: { status: 'up' }, migrations: { status: 'up' } });
    expect((await get(ctx.service.baseUrl, '/health')).status).toBe(200);
  });
});

describe('a database where a committed migration failed', () => {
  const ctx = useServiceWithDatabase({ MIGRATE_ON_START: 'false' });

  it('is not ready and names the failed migration; an unfinished migration of a newer release does not count', async () => {
    await applyMigrations(ctx.db.url, quiet);
    const last = committed[committed.length - 1];
    // As `prisma migrate deploy` leaves it: started, neither finished nor rolled back.
    await ctx.db.query('DELETE FROM "_prisma_migrations" WHERE migration_name = $1', [last]);
    await ctx.db.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, logs)
       VALUES ($1, 'x', $2, 'boom'), ($3, 'y', '29991231000000_from_a_newer_release', NULL)`,
      ['00000000-0000-0000-0000-000000000001', last, '00000000-0000-0000-0000-000000000002'],
    );

    const ready = await get(ctx.service.baseUrl, '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.error.migrations).toMatchObject({ status: 'down', pending: [last], failed: [last] });

    await ctx.db.query('UPDATE "_prisma_migrations" SET finished_at = now() WHERE migration_name = $1', [last]);
    expect((await get(ctx.service.baseUrl, '/health/ready')).status).toBe(200);
  });
});
