import type { AppliedMigration } from './migrations.repository.js';

/** Runs one read-only statement and returns its rows (Kysely's `sql.raw`, a pg client…). */
export type ReadQuery = <T>(sql: string) => Promise<T[]>;

type AppliedRow = Pick<AppliedMigration, 'migration_name' | 'finished_at' | 'rolled_back_at'>;

export interface MigrationStatus {
  /** Committed migrations with no finished, not rolled back record, in the order they apply. */
  pending: string[];
  /**
   * Committed migrations with a record started but neither finished nor rolled back: failed
   * (it blocks every later one until `prisma migrate resolve`), or being applied right now.
   */
  failed: string[];
}

/**
 * Compares the committed migrations with `_prisma_migrations` the way `prisma migrate deploy`
 * does. Records of migrations this build does not know are ignored, finished or not: during a
 * rolling deploy the newer release applies its migrations while this one still serves, and
 * that must not take this one out of rotation.
 */
export function migrationStatus(committed: readonly string[], applied: readonly AppliedRow[]): MigrationStatus {
  const known = new Set(committed);
  const done = new Set(applied.filter((m) => m.finished_at !== null && m.rolled_back_at === null).map((m) => m.migration_name));
  const unfinished = applied.filter((m) => m.finished_at === null && m.rolled_back_at === null && known.has(m.migration_name));
  return {
    pending: committed.filter((name) => !done.has(name)),
    failed: [...new Set(unfinished.map((m) => m.migration_name))],
  };
}

/**
 * Reads `_prisma_migrations` without creating it (read-only: a database nothing was applied
 * to has no such table, and then every committed migration is pending).
 */
export async function readMigrationStatus(query: ReadQuery, committed: readonly string[]): Promise<MigrationStatus> {
  const [table] = await query<{ present: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS present`);
  if (!table?.present) return { pending: [...committed], failed: [] };
  const applied = await query<AppliedRow>(
    'SELECT migration_name, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at ASC',
  );
  return migrationStatus(committed, applied);
}
