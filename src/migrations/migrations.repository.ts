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

/**
 * Prisma's `_prisma_migrations` bookkeeping on one dedicated session. It is plain pg, not
 * Prisma: the advisory lock is session-scoped and each migration must run as one
 * simple-protocol script (one implicit transaction), exactly as `prisma migrate deploy` does.
 */
export class MigrationsRepository {
  private constructor(private readonly client: pg.Client) {}

  static async connect(databaseUrl: string): Promise<MigrationsRepository> {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'whatsapp-webhook-dedup:migrate' });
    client.on('error', () => undefined); // a dropped session surfaces as the next query's error
    await client.connect();
    return new MigrationsRepository(client);
  }

  async withLock<T>(work: () => Promise<T>): Promise<T> {
    await this.client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    try {
      return await work();
    } finally {
      await this.client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]);
    }
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

  /** Records the start, runs the script, records the outcome (a failure blocks later runs). */
  async apply(name: string, checksum: string, sql: string): Promise<void> {
    const id = randomUUID();
    await this.client.query(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
      [id, checksum, name],
    );
    try {
      await this.client.query(sql); // no parameters: simple protocol, the whole script in one implicit transaction
    } catch (error) {
      const logs = error instanceof Error ? `${error.message}\n${(error as { detail?: string }).detail ?? ''}` : String(error);
      await this.client.query('UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1', [id, logs]);
      throw error;
    }
    await this.client.query(
      'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = applied_steps_count + 1 WHERE id = $1',
      [id],
    );
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
