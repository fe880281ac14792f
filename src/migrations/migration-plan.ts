import type { MigrationFile } from './migration-files.js';
import { splitStatements } from './sql-script.js';

/**
 * How one migration runs.
 * - `transaction`: the whole migration.sql in one simple-protocol query, which PostgreSQL runs
 *   as one implicit transaction: all or nothing. It runs under MIGRATION_LOCK_TIMEOUT_MS.
 * - `concurrently`: a migration.sql whose only statement is `CREATE/DROP INDEX CONCURRENTLY`.
 *   Sent the same way, a single statement is not inside a transaction block, so PostgreSQL
 *   accepts CONCURRENTLY (exactly what `prisma migrate deploy` does with such a file). Its
 *   locks never queue writes, so it runs without lock_timeout (see docs/migrations.md).
 */
export type MigrationMode = 'transaction' | 'concurrently';

export interface MigrationPlan {
  mode: MigrationMode;
  /**
   * A failed attempt left nothing behind, so it may run again: the script holds no
   * transaction control of its own (a COMMIT in the middle would keep half of it).
   */
  retryable: boolean;
  /** The index a `CREATE INDEX CONCURRENTLY` builds: an invalid leftover of it is dropped first. */
  buildsIndex?: string;
}

/** A migration the migrator refuses before touching the database, with what to change. */
export class UnsupportedMigrationError extends Error {}

const CONCURRENTLY = /\bconcurrently\b/i;
const TRANSACTION_CONTROL = /^(begin|start\s+transaction|commit|end|rollback|abort|savepoint|release|prepare\s+transaction)\b/i;
const CREATE_INDEX_CONCURRENTLY =
  /^create\s+(?:unique\s+)?index\s+concurrently\s+(?:if\s+not\s+exists\s+)?("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)\s+on\b/i;

export function planMigration(file: MigrationFile): MigrationPlan {
  const statements = splitStatements(file.sql);
  const concurrent = statements.filter((s) => CONCURRENTLY.test(s.code));
  const retryable = !statements.some((s) => TRANSACTION_CONTROL.test(s.code));
  if (concurrent.length === 0) return { mode: 'transaction', retryable };

  if (statements.length > 1) {
    throw new UnsupportedMigrationError(
      `migration ${file.name}: a CONCURRENTLY statement must be the only statement of its migration.sql ` +
        '(PostgreSQL runs a script of several statements as one transaction, where CONCURRENTLY is refused); ' +
        'move it into a migration folder of its own',
    );
  }
  const [statement] = concurrent;
  if (/^create\b/i.test(statement.code)) {
    const name = CREATE_INDEX_CONCURRENTLY.exec(statement.text)?.[1];
    if (!name) {
      throw new UnsupportedMigrationError(
        `migration ${file.name}: name the index of CREATE INDEX CONCURRENTLY, so that an invalid index left by a failed build can be found and dropped`,
      );
    }
    return { mode: 'concurrently', retryable: true, buildsIndex: unquoteIdentifier(name) };
  }
  return { mode: 'concurrently', retryable: true };
}

/** "Name" keeps its case, Name folds to lower case, as PostgreSQL resolves identifiers. */
function unquoteIdentifier(name: string): string {
  return name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name.toLowerCase();
}
