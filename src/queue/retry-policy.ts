/**
 * Exponential backoff with jitter: the n-th retry waits between half and all of
 * base × 2^(n-1), capped at `maxMs`. The random half keeps many events that failed together
 * (a downstream outage) from all retrying in the same instant.
 */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 52));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** A delay the failing step asked for (Retry-After) is honoured, within the same cap. */
export function nextRetryDelayMs(
  attempt: number,
  settings: { baseMs: number; maxMs: number },
  requestedMs?: number,
  random?: () => number,
): number {
  const backoff = retryDelayMs(attempt, settings.baseMs, settings.maxMs, random);
  return requestedMs === undefined ? backoff : Math.min(settings.maxMs, Math.max(backoff, requestedMs));
}

/** The wait before retrying an attempt that failed with `error` (RETRY_BASE_MS, RETRY_MAX_MS), and what the error asked for, if anything. */
export function retryAfterFailure(attempt: number, error: unknown, settings: { baseMs: number; maxMs: number }): { delayMs: number; requestedMs?: number } {
  const requestedMs = error instanceof RetryLaterError ? error.retryAfterMs : undefined;
  return { delayMs: nextRetryDelayMs(attempt, settings, requestedMs), requestedMs };
}

/** Fails the attempt and asks for the retry no sooner than `retryAfterMs` (e.g. from Retry-After). */
export class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'RetryLaterError';
  }
}
