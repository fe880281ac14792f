import { nextRetryDelayMs, retryAfterFailure, retryDelayMs, RetryLaterError } from './retry-policy.js';

describe('retryDelayMs', () => {
  it('doubles the ceiling with every attempt, between half and all of it', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 100, 10_000, () => 0))).toEqual([50, 100, 200, 400]);
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 100, 10_000, () => 1))).toEqual([100, 200, 400, 800]);
  });

  it('never exceeds the cap, however many attempts', () => {
    expect(retryDelayMs(40, 1000, 60_000, () => 1)).toBe(60_000);
    expect(retryDelayMs(5000, 1000, 60_000, () => 1)).toBe(60_000);
  });

  it('spreads retries of events that failed together', () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(3, 1000, 60_000)));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) expect(d >= 2000 && d <= 4000).toBe(true);
  });
});

describe('nextRetryDelayMs', () => {
  const settings = { baseMs: 100, maxMs: 5000 };

  it('waits at least as long as the step asked, within the cap', () => {
    expect(nextRetryDelayMs(1, settings, 3000, () => 0)).toBe(3000);
    expect(nextRetryDelayMs(1, settings, 60_000, () => 0)).toBe(5000);
    expect(nextRetryDelayMs(4, settings, 10, () => 1)).toBe(800);
  });
});

describe('retryAfterFailure', () => {
  const settings = { baseMs: 1000, maxMs: 60_000 };

  it('backs off for an ordinary error and says nothing was asked for', () => {
    const { delayMs, requestedMs } = retryAfterFailure(3, new Error('boom'), settings);
    expect(requestedMs).toBeUndefined();
    expect(delayMs).toBeGreaterThanOrEqual(2000);
    expect(delayMs).toBeLessThanOrEqual(4000);
  });

  it('honours a RetryLaterError within the cap, and passes on what it asked for', () => {
    expect(retryAfterFailure(1, new RetryLaterError('429', 30_000), settings)).toEqual({ delayMs: 30_000, requestedMs: 30_000 });
    expect(retryAfterFailure(1, new RetryLaterError('503', 600_000), settings)).toEqual({ delayMs: 60_000, requestedMs: 600_000 });
  });
});
