import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../src/database/database.js';
import { validateConfig } from './support/settings.js';
import { ReceiptsRepository } from '../src/receipts/receipts.repository.js';
import type { ReceiptUpdate } from '../src/sources/receipt-update.js';
import { DEFAULT_MIGRATIONS_DIR, readMigrationFiles } from '../src/migrations/migration-files.js';
import { applyMigrations } from '../src/migrations/migrator.js';
import { PrismaService } from '../src/prisma/prisma.service.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// Receipts per (provider, tenant, wamid): the three migrations of docs/migrations.md's
// expand pattern, over a table that already holds records, and the code on both layouts.
const quiet = { log: () => undefined, warn: () => undefined };
const LAST_OLD = '20261203000000_event_history';
const ADD_COLUMN = '20261204000000_delivery_tenant';

/** A migrations folder with the committed migrations up to `last`, inclusive. */
async function migrationsUpTo(last: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wdd-migrations-'));
  for (const file of await readMigrationFiles()) {
    if (file.name <= last) await cp(join(DEFAULT_MIGRATIONS_DIR, file.name), join(dir, file.name), { recursive: true });
  }
  return dir;
}

const update = (tenant: string, status: ReceiptUpdate['status']): ReceiptUpdate => ({
  wamid: 'SAMEID', source: 'evolution', tenant, recipient: null, status, at: null, error: null,
});

const primaryKey = (db: TestDatabase) => db.query<{ columns: string }>(`
  SELECT string_agg(a.attname, ',' ORDER BY k.ord) AS columns
  FROM pg_constraint c CROSS JOIN unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
  WHERE c.conname = 'deliveries_pkey'`);

describe('receipts keyed by tenant: the migrations', () => {
  let db: TestDatabase;
  let prisma: PrismaService;
  beforeEach(async () => {
    db = await createTestDatabase();
    prisma = new PrismaService(validateConfig({ DATABASE_URL: db.url }));
  });
  afterEach(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  it('keep the records written before them (tenant empty) and make (provider, tenant, wamid) the primary key', async () => {
    await applyMigrations(db.url, quiet, await migrationsUpTo(LAST_OLD));
    // What the code before this change wrote.
    await db.query(`INSERT INTO deliveries (wamid, provider, status) VALUES ('SAMEID', 'evolution', 'read'), ('wamid.1', 'meta', 'sent')
      ON CONFLICT (provider, wamid) DO NOTHING`);
    expect(await applyMigrations(db.url, quiet)).toEqual([ADD_COLUMN, '20261204000100_deliveries_tenant_key', '20261204000200_deliveries_tenant_pkey']);
    expect(await db.query('SELECT provider::text, tenant, wamid, status::text FROM deliveries ORDER BY wamid')).toEqual([
      { provider: 'evolution', tenant: '', wamid: 'SAMEID', status: 'read' },
      { provider: 'meta', tenant: '', wamid: 'wamid.1', status: 'sent' },
    ]);
    expect(await primaryKey(db)).toEqual([{ columns: 'provider,tenant,wamid' }]);
    expect(await db.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'deliveries' ORDER BY indexname`)).toEqual([
      { indexname: 'deliveries_pkey' }, { indexname: 'deliveries_updated_at_idx' },
    ]);

    const receipts = new ReceiptsRepository(new Database(prisma));
    expect(await receipts.apply(update('sales', 'failed'))).toBe('failed');
    expect(await receipts.apply(update('support', 'delivered'))).toBe('delivered');
    expect((await receipts.findAll('SAMEID', 'evolution')).map((r) => [r.tenant, r.status])).toEqual([[null, 'read'], ['sales', 'failed'], ['support', 'delivered']]);
  });

  it('leave the code working on the layout before the key swap (a release step that stopped half-way)', async () => {
    await applyMigrations(db.url, quiet, await migrationsUpTo(ADD_COLUMN));
    const receipts = new ReceiptsRepository(new Database(prisma));
    expect(await receipts.apply(update('sales', 'sent'))).toBe('sent');
    // Before the swap the key is still (provider, wamid): the second tenant's status merges into the one record.
    expect(await receipts.apply(update('support', 'read'))).toBe('read');
    expect(await primaryKey(db)).toEqual([{ columns: 'provider,wamid' }]);
  });
});
