import { MigrationsRepository } from './migrations.repository.js';
import { DEFAULT_MIGRATIONS_DIR, readMigrationFiles } from './migration-files.js';

export interface MigrationLog {
  log(message: string): void;
  warn(message: string): void;
}

export class FailedMigrationError extends Error {}

/**
 * Applies pending migrations the way `prisma migrate deploy` does, so either tool can follow
 * the other. Concurrent callers (several instances starting at once) serialize on Prisma's
 * advisory lock; whoever comes second finds nothing left to do.
 */
export async function applyMigrations(
  databaseUrl: string,
  logger: MigrationLog,
  dir = DEFAULT_MIGRATIONS_DIR,
): Promise<string[]> {
  const files = await readMigrationFiles(dir);
  const repository = await MigrationsRepository.connect(databaseUrl);
  try {
    return await repository.withLock(async () => {
      await repository.ensureBookkeepingTable();
      const applied = await repository.listApplied();
      const failed = applied.find((m) => m.finished_at === null && m.rolled_back_at === null);
      if (failed) {
        throw new FailedMigrationError(
          `migration ${failed.migration_name} failed earlier and blocks the others; fix the database, then ` +
            `mark it with \`prisma migrate resolve --rolled-back ${failed.migration_name}\` (or --applied)`,
        );
      }
      const done = new Map(applied.filter((m) => m.finished_at !== null && m.rolled_back_at === null).map((m) => [m.migration_name, m]));
      const newlyApplied: string[] = [];
      for (const file of files) {
        const previous = done.get(file.name);
        if (previous) {
          if (previous.checksum !== file.checksum) logger.warn(`migration ${file.name} was modified after it was applied`);
          continue;
        }
        logger.log(`applying migration ${file.name}`);
        await repository.apply(file.name, file.checksum, file.sql);
        newlyApplied.push(file.name);
      }
      return newlyApplied;
    });
  } finally {
    await repository.close();
  }
}
