import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { applyMigrations } from '../src/migrations/migrator.js';
import { RecordingLog } from './support/migration-fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { parseStatements } from './migration-lint/sql-statements.js';

// The hand-run upgrade of docs/deployment.md's "Upgrade notes" must leave exactly what the migration leaves,
// and the migrator must take it as applied (same checksum) and go on with the later ones.
const TARGET = '20261201120000_trust_boundary';
const SCRIPT = 'deploy/upgrade/20261201120000_trust_boundary.sql';

const SCHEMA = `
  SELECT 'column' AS kind, table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS def
    FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
  UNION ALL SELECT 'index', indexdef FROM pg_indexes WHERE schemaname = 'public'
  UNION ALL SELECT 'constraint', conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  ORDER BY 1, 2`;

async function migrationsBefore(target: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wdd-upgrade-'));
  for (const name of (await readdir('prisma/migrations')).filter((n) => n < target && !n.endsWith('.toml'))) {
    await cp(join('prisma/migrations', name), join(dir, name), { recursive: true });
  }
  return dir;
}

/** What psql -f does: each statement sent on its own, in autocommit. */
async function runScript(url: string, file: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const stmt of await parseStatements(await readFile(file, 'utf8'))) await client.query(stmt.sql);
  } finally {
    await client.end();
  }
}

describe(`hand-run upgrade across ${TARGET}`, () => {
  let viaMigration: TestDatabase;
  let byHand: TestDatabase;
  let before: string;
  beforeEach(async () => {
    [viaMigration, byHand, before] = await Promise.all([createTestDatabase(), createTestDatabase(), migrationsBefore(TARGET)]);
  });
  afterEach(async () => {
    await Promise.all([viaMigration.drop(), byHand.drop(), rm(before, { recursive: true, force: true })]);
  });

  it('leaves the schema the migration leaves, and the migrator goes on from it', async () => {
    const quiet = { log: () => undefined, warn: () => undefined };
    await applyMigrations(viaMigration.url, quiet);

    await applyMigrations(byHand.url, quiet, before);
    await byHand.query(`INSERT INTO deliveries (wamid, provider, status) VALUES ('wamid.A', 'meta', 'sent'), ('wamid.B', 'meta', 'read')`);
    await runScript(byHand.url, SCRIPT);
    await runScript(byHand.url, SCRIPT); // run again after a stop half-way: each step is skipped once done
    const log = new RecordingLog();
    const applied = await applyMigrations(byHand.url, log);

    expect(applied).not.toContain(TARGET);
    expect(applied.length).toBeGreaterThan(0);
    expect(log.lines.filter((l) => /modified/.test(l))).toEqual([]);
    const expected = await viaMigration.query<{ kind: string; def: string }>(SCHEMA);
    expect(expected.map((r) => r.def)).toContain('deliveries deliveries_pkey PRIMARY KEY (provider, tenant, wamid)');
    expect(await byHand.query(SCHEMA)).toEqual(expected);
    expect(await byHand.query(`SELECT count(*)::int AS n FROM _prisma_migrations WHERE migration_name = $1`, [TARGET])).toEqual([{ n: 1 }]);
    expect(await byHand.query('SELECT wamid FROM deliveries ORDER BY wamid')).toEqual([{ wamid: 'wamid.A' }, { wamid: 'wamid.B' }]);
  }, 120_000); // two databases migrated in full: about 20 s on the embedded PostgreSQL
});
