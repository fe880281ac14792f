/**
 * The SQLSTATE the PostgreSQL server answered with, however the error reached us: a driver
 * adapter error inside a Prisma error (`meta.driverAdapterError.cause.originalCode`), or a
 * pg DatabaseError. Undefined when the server never answered (unreachable, timeout).
 */
export function sqlState(error: unknown, depth = 0): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 6) return undefined;
  const e = error as { code?: unknown; severity?: unknown; originalCode?: unknown; meta?: { driverAdapterError?: unknown }; cause?: unknown };
  if (typeof e.originalCode === 'string') return e.originalCode;
  if (typeof e.severity === 'string' && typeof e.code === 'string') return e.code;
  return sqlState(e.meta?.driverAdapterError, depth + 1) ?? sqlState(e.cause, depth + 1);
}

/** PostgreSQL's unique_violation (23505), or Prisma's P2002 for the same thing on model queries. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'P2002' || sqlState(error) === '23505';
}

/** The server refused the data itself (classes 22 data exception, 23 integrity constraint violation). */
export function isDataError(error: unknown): boolean {
  const state = sqlState(error);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

/** deadlock_detected, serialization_failure: the transaction lost a race and may simply run again. */
const CONFLICT_STATES = new Set(['40P01', '40001']);

/** Runs `work` again (up to `attempts` times in all) when it lost a lock race. */
export async function withConflictRetries<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !CONFLICT_STATES.has(sqlState(error) ?? '')) throw error;
    }
  }
}

/**
 * Errors that may pass if the same statement is sent again a moment later: the server never
 * answered (no SQLSTATE: a dropped connection, a refused connect), a connection or
 * server-shutdown/restart class error, too many connections, or a lost lock race.
 */
export function isTransient(error: unknown): boolean {
  const state = sqlState(error);
  if (state === undefined) return true;
  return state.startsWith('08') || state.startsWith('57P') || state === '53300' || CONFLICT_STATES.has(state);
}
