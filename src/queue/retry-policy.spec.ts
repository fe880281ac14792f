import { nextRetryDelayMs, retryDelayMs } from './retry-policy.js';

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
