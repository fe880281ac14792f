import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { applyMigrations } from '../src/migrations/migrator.js';
import { migrationsWith, RecordingLog } from './support/migration-fixtures.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// What the lint accepts must also be what the migrator applies: the compliant probes, on top of
// the committed migrations, against a real database.
const PROBES = 'test/fixtures/migration-lint';

async function compliantProbes(): Promise<Record<string, string>> {
  const migrations: Record<string, string> = {};
  for (const probe of (await readdir(PROBES)).filter((p) => p.startsWith('ok-'))) {
    for (const name of await readdir(join(PROBES, probe))) {
      migrations[name] = await readFile(join(PROBES, probe, name, 'migration.sql'), 'utf8');
    }
  }
  return migrations;
}

describe('compliant probe migrations apply', () => {
  let db: TestDatabase;
  let dir: string;
  beforeEach(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('every compliant probe applies through the migrator, CONCURRENTLY ones outside a transaction', async () => {
    const probes = await compliantProbes();
    dir = await migrationsWith(probes);
    const log = new RecordingLog();
    const applied = await applyMigrations(db.url, log, dir);
    expect(applied).toEqual(expect.arrayContaining(Object.keys(probes)));
    expect(log.count(/CONCURRENTLY, outside a transaction/)).toBeGreaterThanOrEqual(3);
    const constraints = await db.query<{ def: string }>(
      `SELECT conrelid::regclass || ' ' || pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname IN ('deliveries_pkey', 'message_steps_step_message_id_key', 'destination_jobs_after_fkey', 'messages_attempts_check') ORDER BY 1`);
    expect(constraints.map((c) => c.def)).toEqual([
      'deliveries PRIMARY KEY (wamid, provider)',
      'destination_jobs FOREIGN KEY (after_message_id) REFERENCES messages(message_id)',
      'message_steps UNIQUE (step, message_id)',
      'messages CHECK ((attempts >= 0))',
    ]);
    const tenant = await db.query<{ is_nullable: string }>(`SELECT is_nullable FROM information_schema.columns WHERE table_name = 'messages' AND column_name = 'tenant'`);
    expect(tenant).toEqual([{ is_nullable: 'NO' }]);
  }, 120_000); // a dozen migrations more than the committed ones: about 15 s on the embedded PostgreSQL
});
