import { activityWindow } from './activity-window.js';

describe('activityWindow', () => {
  it('aligns buckets to their width, the last one holding now', () => {
    const now = new Date('2026-12-01T10:17:42.500Z');
    expect(activityWindow('hour', now)).toEqual({ bucketSeconds: 60, buckets: 60, from: new Date('2026-12-01T09:18:00Z'), to: new Date('2026-12-01T10:18:00Z') });
    expect(activityWindow('day', now)).toEqual({ bucketSeconds: 900, buckets: 96, from: new Date('2026-11-30T10:30:00Z'), to: new Date('2026-12-01T10:30:00Z') });
    expect(activityWindow('week', now)).toEqual({ bucketSeconds: 3600, buckets: 168, from: new Date('2026-11-24T11:00:00Z'), to: new Date('2026-12-01T11:00:00Z') });
  });

  it('covers exactly buckets × width', () => {
    for (const range of ['hour', 'day', 'week'] as const) {
      const w = activityWindow(range, new Date());
      expect(w.to.getTime() - w.from.getTime()).toBe(w.buckets * w.bucketSeconds * 1000);
    }
  });
});
