import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthCheckAttempt, type HealthIndicatorResult } from '@nestjs/terminus';
import { sql } from 'kysely';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Database } from '../database/database.js';
import { readMigrationFiles } from '../migrations/migration-files.js';
import { readMigrationStatus } from '../migrations/migration-status.js';

/** How long the database may take to answer a readiness probe. */
export const DATABASE_TIMEOUT_MS = 2000;

/**
 * Liveness: the process runs and its event loop turns. Answering at all already proves most
 * of it (a blocked loop answers nothing and the probe times out); the check also waits for
 * one full turn of the loop. It touches nothing outside the process, on purpose.
 */
@Injectable()
export class LivenessIndicator {
  constructor(private readonly indicators: HealthIndicatorService) {}

  eventLoop<const Key extends string>(key: Key, timeoutMs = 1000): HealthCheckAttempt<Key> {
    return this.indicators
      .check(key)
      .attempt(async () => {
        await nextTurn();
        return { uptimeSeconds: Math.round(process.uptime()) };
      })
      .withTimeout(timeoutMs);
  }
}

/**
 * The database answers `SELECT 1` within DATABASE_TIMEOUT_MS, checked on every probe.
 * Probes that arrive while a ping younger than that is waiting share it, so a hanging
 * database cannot make frequent probes pile up queries on the pool the webhooks need (a ping
 * that has outlived its timeout is not shared: it must not answer for a recovered database).
 */
@Injectable()
export class DatabaseIndicator {
  private inFlight: { ping: Promise<unknown>; startedAt: number } | null = null;

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly db: Database,
  ) {}

  pingCheck<const Key extends string>(key: Key, timeoutMs = DATABASE_TIMEOUT_MS): HealthCheckAttempt<Key> {
    return this.indicators
      .check(key)
      .attempt(async () => {
        await this.ping().catch((error: unknown) => {
          throw new Error(databaseErrorMessage(error));
        });
      })
      .withTimeout(timeoutMs);
  }

  private ping(): Promise<unknown> {
    if (this.inFlight && Date.now() - this.inFlight.startedAt < DATABASE_TIMEOUT_MS) return this.inFlight.ping;
    const current = {
      startedAt: Date.now(),
      ping: PING.execute(this.db).finally(() => {
        if (this.inFlight === current) this.inFlight = null;
      }),
    };
    this.inFlight = current;
    return current.ping;
  }
}

/**
 * Every committed migration (prisma/migrations) is applied: finished and not rolled back.
 * Down names the pending (and failed) ones. Applied migrations stay applied, so once all are
 * the answer is kept and the check costs nothing; until then every probe looks again.
 */
@Injectable()
export class MigrationsIndicator {
  private allApplied = false;
  private committed: Promise<string[]> | null = null;

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly db: Database,
  ) {}

  async isApplied<const Key extends string>(key: Key, timeoutMs = DATABASE_TIMEOUT_MS): Promise<HealthIndicatorResult<Key>> {
    const session = this.indicators.check(key);
    let names: string[];
    try {
      names = await this.committedNames();
    } catch (error) {
      return session.down({ message: `could not read the committed migrations: ${(error as Error).message}` });
    }
    if (this.allApplied) return session.up({ applied: names.length });
    let status;
    try {
      // The statement text is shared with the migrator's own client (migration-status.ts): kept as text.
      const query = async <T>(text: string) => (await sql.raw<T>(text).execute(this.db)).rows;
      status = await withTimeout(readMigrationStatus(query, names), timeoutMs);
    } catch (error) {
      return session.down({ message: `could not read _prisma_migrations: ${databaseErrorMessage(error)}` });
    }
    const { pending, failed } = status;
    if (pending.length === 0 && failed.length === 0) {
      this.allApplied = true;
      return session.up({ applied: names.length });
    }
    const message = failed.length
      ? `migration ${failed.join(', ')} failed (or is being applied); it blocks the others`
      : `${pending.length} committed migration(s) not applied: run \`npm run migrate\` or start with MIGRATE_ON_START=true`;
    return session.down({ message, pending, ...(failed.length > 0 && { failed }) });
  }

  /** The migrations this build ships with: read once (a failed read is tried again). */
  private committedNames(): Promise<string[]> {
    this.committed ??= readMigrationFiles().then(
      (files) => files.map((f) => f.name),
      (error: unknown) => {
        this.committed = null;
        throw error;
      },
    );
    return this.committed;
  }
}

/** The readiness probe's statement. */
export const PING = sql`SELECT 1`;

/** The driver's words; Prisma wraps them in a multi-line "Invalid `prisma.$queryRaw()` invocation" text, whose words are kept. */
function databaseErrorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return /Message: `([^`]+)`/.exec(text)?.[1] ?? text.trim().split('\n').filter(Boolean).pop() ?? text;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timeout of ${ms}ms exceeded`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
