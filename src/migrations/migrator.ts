import { setTimeout as sleep } from 'node:timers/promises';
import { applyWithRetries, type AttemptSettings, type MigrationLog } from './migration-attempts.js';
import { DEFAULT_MIGRATIONS_DIR, readMigrationFiles, type MigrationFile } from './migration-files.js';
import { planMigration, type MigrationPlan } from './migration-plan.js';
import { MigrationsRepository } from './migrations.repository.js';

export type { MigrationLog } from './migration-attempts.js';
export { MigrationFailedError } from './migration-attempts.js';
export { UnsupportedMigrationError } from './migration-plan.js';

export class FailedMigrationError extends Error {}

export interface MigrationOptions extends Partial<AttemptSettings> {
  /** How often to try Prisma's advisory lock while another process holds it, in ms. */
  lockPollMs?: number;
}

/**
 * 2 s: below the claims' DB_STATEMENT_TIMEOUT_MS (5 s), so a claim queued behind a migration
 * that waits for its lock still succeeds. 5 attempts, 1 + 2 + 4 + 8 s apart: a blocker gets
 * about 25 s to go away before the migration is recorded as failed.
 */
export const MIGRATION_DEFAULTS: Required<MigrationOptions> = { lockTimeoutMs: 2000, maxAttempts: 5, retryDelayMs: 1000, lockPollMs: 250 };

/**
 * Applies pending migrations the way `prisma migrate deploy` does, so either tool can follow
 * the other. Concurrent callers (several instances starting at once) serialize on Prisma's
 * advisory lock; whoever comes second finds nothing left to do.
 */
export async function applyMigrations(
  databaseUrl: string,
  logger: MigrationLog,
  dir = DEFAULT_MIGRATIONS_DIR,
  options: MigrationOptions = {},
): Promise<string[]> {
  const settings = { ...MIGRATION_DEFAULTS, ...options };
  const files = await readMigrationFiles(dir);
  const repository = await MigrationsRepository.connect(databaseUrl);
  try {
    await acquireLock(repository, settings.lockPollMs, logger);
    try {
      await repository.ensureBookkeepingTable();
      const pending = await pendingMigrations(repository, files, logger);
      // Every pending migration is checked before the first one runs: a file the migrator
      // refuses stops the run with nothing applied, not half-way through a release.
      const plans: Array<[MigrationFile, MigrationPlan]> = pending.map((file) => [file, planMigration(file)]);
      for (const [file, plan] of plans) {
        logger.log(`applying migration ${file.name}${plan.mode === 'concurrently' ? ' (CONCURRENTLY, outside a transaction)' : ''}`);
        await applyWithRetries(repository, file, plan, settings, logger);
      }
      return plans.map(([file]) => file.name);
    } finally {
      // A lost session has released the lock already; its error must not hide the real one.
      await repository.unlock().catch(() => undefined);
    }
  } finally {
    await repository.close();
  }
}

/** Polls (see MigrationsRepository.tryLock for why it never blocks inside PostgreSQL). */
async function acquireLock(repository: MigrationsRepository, pollMs: number, logger: MigrationLog): Promise<void> {
  let told = false;
  while (!(await repository.tryLock())) {
    if (!told) logger.log('another process is applying migrations; waiting for it');
    told = true;
    await sleep(pollMs);
  }
}

async function pendingMigrations(repository: MigrationsRepository, files: MigrationFile[], logger: MigrationLog): Promise<MigrationFile[]> {
  const applied = await repository.listApplied();
  const failed = applied.find((m) => m.finished_at === null && m.rolled_back_at === null);
  if (failed) {
    throw new FailedMigrationError(
      `migration ${failed.migration_name} failed earlier and blocks the others; fix the database, then ` +
        `mark it with \`prisma migrate resolve --rolled-back ${failed.migration_name}\` (or --applied)`,
    );
  }
  const done = new Map(applied.filter((m) => m.finished_at !== null && m.rolled_back_at === null).map((m) => [m.migration_name, m]));
  return files.filter((file) => {
    const previous = done.get(file.name);
    if (previous && previous.checksum !== file.checksum) logger.warn(`migration ${file.name} was modified after it was applied`);
    return !previous;
  });
}
