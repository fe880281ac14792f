import { setTimeout as sleep } from 'node:timers/promises';
import type { MigrationFile } from './migration-files.js';
import type { MigrationPlan } from './migration-plan.js';
import type { MigrationsRepository } from './migrations.repository.js';

export interface MigrationLog {
  log(message: string): void;
  warn(message: string): void;
}

export interface AttemptSettings {
  /** lock_timeout of a transactional migration, in ms (0: wait as long as it takes). */
  lockTimeoutMs: number;
  /** Attempts per migration when one fails for a lock it could not get in time or a deadlock. */
  maxAttempts: number;
  /** Pause before the second attempt; it doubles before each further one. */
  retryDelayMs: number;
}

/**
 * Worth another attempt: nothing of the migration is left (its transaction was rolled back)
 * and the cause is other sessions' locks, which come and go. 55P03: lock_timeout expired;
 * 40P01: chosen as a deadlock's victim.
 */
const TRANSIENT = new Set(['55P03', '40P01']);

/** A failure after the last attempt: recorded in `_prisma_migrations`, it blocks later runs. */
export class MigrationFailedError extends Error {}

/**
 * Applies one migration with Prisma's bookkeeping: one `_prisma_migrations` row, started
 * once; finished on success; `logs` set only when the last attempt failed. In between, the row
 * stays unfinished and without logs, exactly as while a single attempt runs. The caller holds
 * Prisma's advisory lock throughout (on this same session), so nobody else migrates between
 * attempts.
 */
export async function applyWithRetries(
  repository: MigrationsRepository,
  file: MigrationFile,
  plan: MigrationPlan,
  settings: AttemptSettings,
  logger: MigrationLog,
): Promise<void> {
  const id = await repository.recordStarted(file.name, file.checksum);
  // CONCURRENTLY takes no lock that queues writes, and its waits for older transactions are lock
  // waits too: under lock_timeout any transaction older than it (a report, pg_dump) would fail it.
  const lockTimeoutMs = plan.mode === 'transaction' ? settings.lockTimeoutMs : 0;
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (plan.buildsIndex) await dropInvalidIndex(repository, file.name, plan.buildsIndex, logger);
      await repository.runScript(file.sql, lockTimeoutMs);
      break;
    } catch (error) {
      const code = sqlState(error);
      const transient = plan.retryable && code !== undefined && TRANSIENT.has(code);
      if (!transient || attempt >= settings.maxAttempts) {
        const note = transient ? `Gave up after ${attempt} attempts (lock_timeout ${lockTimeoutMs} ms).` : '';
        await repository.recordFailed(id, failureLogs(file.name, error, note));
        if (!transient) throw error;
        throw new MigrationFailedError(`migration ${file.name} failed ${attempt} times (${describe(error)}); ${note}`, { cause: error });
      }
      const delayMs = settings.retryDelayMs * 2 ** (attempt - 1);
      logger.warn(
        `migration ${file.name}: ${describe(error)} (attempt ${attempt} of ${settings.maxAttempts}); ` +
          `nothing of it was applied, trying again in ${delayMs} ms`,
      );
      await sleep(delayMs);
    }
  }
  await repository.recordFinished(id);
}

/**
 * A failed CREATE INDEX CONCURRENTLY leaves its index behind, INVALID: unused by queries but
 * still maintained by every write. `IF NOT EXISTS` would then keep it, and without it the build
 * fails on the name; so it is dropped (concurrently) before each build. An index being built
 * by another session right now is left alone: that is someone else's work.
 */
async function dropInvalidIndex(repository: MigrationsRepository, migration: string, index: string, logger: MigrationLog): Promise<void> {
  const state = await repository.findIndex(index);
  if (!state || state.valid) return;
  if (state.building) {
    throw new Error(`migration ${migration}: index ${index} is being built by another session; wait for it to finish or cancel it`);
  }
  logger.warn(`migration ${migration}: dropping the invalid index ${index} left by a failed build, then building it again`);
  await repository.dropIndexConcurrently(index);
}

function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describe(error: unknown): string {
  const code = sqlState(error);
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${message} [${code}]` : message;
}

/** The `logs` text in the shape `prisma migrate deploy` records (its P3018 message). */
function failureLogs(migration: string, error: unknown, note: string): string {
  const { message, detail, hint } = (error ?? {}) as { message?: string; detail?: string; hint?: string };
  const database = [`ERROR: ${message ?? String(error)}`, detail && `DETAIL: ${detail}`, hint && `HINT: ${hint}`].filter(Boolean).join('\n');
  return [
    'A migration failed to apply. New migrations cannot be applied before the error is recovered from. Read more about how to ' +
      'resolve migration issues in a production database: https://pris.ly/d/migrate-resolve',
    `Migration name: ${migration}`,
    `Database error code: ${sqlState(error) ?? 'none'}`,
    `Database error:\n${database}`,
    note,
  ]
    .filter(Boolean)
    .join('\n\n');
}
