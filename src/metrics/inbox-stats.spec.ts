import { toInboxStats } from './inbox-stats.js';

describe('toInboxStats', () => {
  it('is all zeros for an empty inbox', () => {
    expect(toInboxStats([])).toEqual({ counts: { received: 0, processing: 0, failed: 0, dead: 0 }, oldestUnprocessedSeconds: 0 });
  });

  it('counts per status and takes the oldest age among unfinished statuses only', () => {
    const stats = toInboxStats([
      { status: 'received', count: 3, oldest_seconds: 1.5 },
      { status: 'failed', count: 2, oldest_seconds: 90 },
      { status: 'processing', count: 1, oldest_seconds: 4 },
      { status: 'dead', count: 7, oldest_seconds: 86_400 },
    ]);
    expect(stats).toEqual({ counts: { received: 3, processing: 1, failed: 2, dead: 7 }, oldestUnprocessedSeconds: 90 });
  });

  it('ignores statuses it does not report and accepts numeric strings', () => {
    const stats = toInboxStats([
      { status: 'processed', count: 1000, oldest_seconds: 999 },
      { status: 'received', count: '5' as unknown as number, oldest_seconds: '2.25' as unknown as number },
    ]);
    expect(stats).toEqual({ counts: { received: 5, processing: 0, failed: 0, dead: 0 }, oldestUnprocessedSeconds: 2.25 });
  });

  it('never reports a negative age', () => {
    expect(toInboxStats([{ status: 'received', count: 1, oldest_seconds: -0.001 }]).oldestUnprocessedSeconds).toBe(0);
  });
});
