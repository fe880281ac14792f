import { describe, expect, it } from '@jest/globals';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { checkBaseline } from './baseline.js';
import { BUSY_TABLES, QUIET_TABLES } from './busy-tables.js';
import { lintMigrations } from './lint.js';
import { createdTable } from './own-rules.js';
import { formatViolation, type Violation } from './violation.js';

// `npm run lint:migrations` runs this file alone; `npm test` runs it with the rest.
const MIGRATIONS = 'prisma/migrations';
const PROBES = 'test/fixtures/migration-lint';

/** A probe's migrations linted on top of the committed ones (whose schema they rely on): the probe's findings. */
async function lintProbe(probe: string) {
  const dir = join(PROBES, probe);
  const names = new Set(await readdir(dir));
  const { migrations, violations } = await lintMigrations([MIGRATIONS, dir]);
  return { migrations: migrations.filter((m) => names.has(m.name)), violations: violations.filter((v) => names.has(v.migration)) };
}

function failIfAny(violations: Violation[], stale: string[] = []): void {
  if (violations.length === 0 && stale.length === 0) return;
  throw new Error([
    ...violations.map(formatViolation),
    ...stale,
    '',
    'Migrations must not hold a busy table while they work (docs/migrations.md, "What to write instead").',
  ].join('\n'));
}

describe('migration lint over prisma/migrations', () => {
  it('every migration breaks no rule, bar the applied ones in the baseline (each still pinned to its checksum)', async () => {
    const { migrations, violations } = await lintMigrations(MIGRATIONS);
    const { unexpected, stale } = checkBaseline(migrations, violations);
    failIfAny(unexpected, stale);
  });

  it('lints every migration folder, whoever added it', async () => {
    const folders = (await readdir(MIGRATIONS, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    const { migrations } = await lintMigrations(MIGRATIONS);
    expect(migrations.map((m) => m.name).sort()).toEqual(folders.sort());
    expect(migrations.length).toBeGreaterThanOrEqual(12);
    expect(migrations.every((m) => m.statements.length > 0)).toBe(true);
  });

  it('every table the migrations create is classified busy or quiet', async () => {
    const { migrations } = await lintMigrations(MIGRATIONS);
    const created = migrations.flatMap((m) => m.statements.flatMap((s) => createdTable(s.node) ?? []));
    expect(created).toContain('messages');
    expect(created.filter((t) => !BUSY_TABLES.has(t) && !QUIET_TABLES.has(t))).toEqual([]);
  });

  it('the baseline excuses no new migration: one that repeats trust_boundary fails', async () => {
    const { migrations, violations } = await lintMigrations([MIGRATIONS, join(PROBES, 'two-busy-tables')]);
    const { unexpected, stale } = checkBaseline(migrations, violations);
    expect(stale).toEqual([]);
    expect(unexpected.map((v) => `${v.rule} ${v.migration}`)).toEqual(['one-busy-table 20270101000000_two_tables']);
  });
});

describe('probe migrations that break a rule fail, naming the rule, the file and the statement', () => {
  it.each([
    ['two-busy-tables', ['one-busy-table'], 'ALTER TABLE "deliveries" ADD COLUMN "trace"'],
    ['index-not-concurrent', ['squawk:require-concurrent-index-creation'], 'CREATE INDEX "deliveries_recipient_idx"'],
    ['drop-index-not-concurrent', ['squawk:require-concurrent-index-deletion'], 'DROP INDEX "messages_sender_received_at_idx"'],
    ['concurrently-not-alone', ['concurrently-alone'], 'CREATE INDEX CONCURRENTLY "deliveries_recipient_idx"'],
    ['primary-key-without-using-index', ['squawk:adding-serial-primary-key-field', 'squawk:constraint-missing-not-valid'], 'PRIMARY KEY ("provider", "wamid")'],
    ['unique-without-using-index', ['squawk:constraint-missing-not-valid', 'squawk:disallowed-unique-constraint'], 'UNIQUE ("provider", "wamid")'],
    ['check-without-not-valid', ['squawk:constraint-missing-not-valid'], 'CHECK ("attempts" >= 0)'],
    ['foreign-key-without-not-valid', ['squawk:adding-foreign-key-constraint', 'squawk:constraint-missing-not-valid'], 'FOREIGN KEY ("after_message_id")'],
    ['not-valid-and-validate-together', ['squawk:constraint-missing-not-valid'], 'VALIDATE CONSTRAINT "messages_attempts_check"'],
    ['column-type', ['squawk:changing-column-type'], 'ALTER COLUMN "type" TYPE TEXT'],
    ['volatile-default', ['squawk:adding-field-with-default'], 'DEFAULT gen_random_uuid()'],
    ['set-not-null', ['not-null-without-validated-check'], 'ALTER COLUMN "tenant" SET NOT NULL'],
    ['set-not-null-check-not-validated', ['not-null-without-validated-check'], 'ALTER COLUMN "tenant" SET NOT NULL'],
    ['primary-key-on-nullable-column', ['not-null-without-validated-check'], 'PRIMARY KEY USING INDEX "deliveries_provider_channel_wamid_key"'],
    ['vacuum-full', ['table-rewrite'], 'VACUUM FULL "messages"'],
    ['cluster', ['table-rewrite'], 'CLUSTER "deliveries"'],
    ['serial-column', ['table-rewrite'], 'ADD COLUMN "seq" BIGSERIAL'],
    ['required-column', ['squawk:adding-required-field'], 'ADD COLUMN "tenant" VARCHAR(128) NOT NULL'],
    ['reindex-not-concurrent', ['squawk:require-concurrent-reindex'], 'REINDEX INDEX "deliveries_pkey"'],
  ])('%s', async (probe, rules, statement) => {
    const { migrations, violations } = await lintProbe(probe);
    expect([...new Set(violations.map((v) => v.rule))].sort()).toEqual(rules);
    const last = migrations[migrations.length - 1];
    for (const line of violations.map(formatViolation)) {
      expect(line).toMatch(/^[a-z:-]+: /);
      expect(line).toContain(`${last.file}:`);
      expect(line).toContain(statement);
    }
  });
});

describe('compliant probe migrations pass', () => {
  it.each([
    'ok-concurrently-alone',
    'ok-not-valid-then-validate',
    'ok-set-not-null-after-validated-check',
    'ok-using-index',
    'ok-instant-columns-and-new-table',
  ])('%s', async (probe) => {
    const { migrations, violations } = await lintProbe(probe);
    expect(migrations.length).toBeGreaterThan(0);
    failIfAny(violations);
  });
});
