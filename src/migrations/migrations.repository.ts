import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** Prisma Migrate's advisory lock key: holding it also excludes a concurrent `prisma migrate deploy`. */
const PRISMA_MIGRATE_LOCK = 72707369;

export interface AppliedMigration {
  id: string;
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export interface IndexState {
  valid: boolean;
  /** A CREATE INDEX (CONCURRENTLY) is building it right now, in some session. */
  building: boolean;
}

/**
 * Prisma's `_prisma_migrations` bookkeeping on one dedicated session. It is plain pg, not
 * Prisma: the advisory lock is session-scoped and each migration must run as one
 * simple-protocol script (one implicit transaction, or no transaction for a lone statement).
 */
export class MigrationsRepository {
  private constructor(private readonly client: pg.Client) {}

  static async connect(databaseUrl: string): Promise<MigrationsRepository> {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'whatsapp-webhook-dedup:migrate' });
    client.on('error', () => undefined); // a dropped session surfaces as the next query's error
    await client.connect();
    return new MigrationsRepository(client);
  }

  /**
   * Never waits inside PostgreSQL: a session blocked in pg_advisory_lock() holds a snapshot,
   * and CREATE INDEX CONCURRENTLY waits for every older snapshot, so a waiting instance and
   * the migrating one would deadlock. The caller polls instead.
   */
  async tryLock(): Promise<boolean> {
    const { rows } = await this.client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [PRISMA_MIGRATE_LOCK]);
    return rows[0].locked;
  }

  async unlock(): Promise<void> {
    await this.client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]);
  }

  async ensureBookkeepingTable(): Promise<void> {
    await this.client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum"            VARCHAR(64) NOT NULL,
      "finished_at"         TIMESTAMPTZ,
      "migration_name"      VARCHAR(255) NOT NULL,
      "logs"                TEXT,
      "rolled_back_at"      TIMESTAMPTZ,
      "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0
    )`);
  }

  async listApplied(): Promise<AppliedMigration[]> {
    const { rows } = await this.client.query<AppliedMigration>(
      'SELECT id, migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at ASC',
    );
    return rows;
  }

  /** Prisma's record_migration_started: the row that blocks later runs until it is finished. */
  async recordStarted(name: string, checksum: string): Promise<string> {
    const id = randomUUID();
    await this.client.query(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
      [id, checksum, name],
    );
    return id;
  }

  /**
   * Runs migration.sql as one simple-protocol query (no parameters), as Prisma sends it, with
   * `lock_timeout` set on the session around it only (0 = wait as long as it takes). After a
   * failure the session is rolled back, in case the script opened a transaction of its own.
   */
  async runScript(sql: string, lockTimeoutMs: number): Promise<void> {
    await this.client.query(`SELECT set_config('lock_timeout', $1, false)`, [`${lockTimeoutMs}ms`]);
    try {
      await this.client.query(sql);
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await this.client.query('RESET lock_timeout').catch(() => undefined);
    }
  }

  /** Prisma's record_failed_step: logs set, finished_at left NULL, so the migration blocks. */
  async recordFailed(id: string, logs: string): Promise<void> {
    await this.client.query('UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1', [id, logs]);
  }

  /** Prisma's record_successful_step then record_migration_finished. */
  async recordFinished(id: string): Promise<void> {
    await this.client.query(
      'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = applied_steps_count + 1 WHERE id = $1',
      [id],
    );
  }

  /** The index of that (unqualified, exact) name on the search path, or null. */
  async findIndex(name: string): Promise<IndexState | null> {
    const { rows } = await this.client.query<IndexState>(
      `SELECT i.indisvalid AS valid,
              EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = i.indexrelid) AS building
       FROM pg_index i WHERE i.indexrelid = to_regclass(quote_ident($1))`,
      [name],
    );
    return rows[0] ?? null;
  }

  /** Drops it without taking locks that queue writes (a lone statement: outside a transaction). */
  async dropIndexConcurrently(name: string): Promise<void> {
    await this.runScript(`DROP INDEX CONCURRENTLY IF EXISTS ${pg.escapeIdentifier(name)}`, 0);
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
