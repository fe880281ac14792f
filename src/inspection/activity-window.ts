export const ACTIVITY_RANGES = ['hour', 'day', 'week'] as const;
export type ActivityRange = (typeof ACTIVITY_RANGES)[number];

/** Each range's bucket width and count: 60 × 1 min, 96 × 15 min, 168 × 1 h. */
const SHAPES: Record<ActivityRange, { bucketSeconds: number; buckets: number }> = {
  hour: { bucketSeconds: 60, buckets: 60 },
  day: { bucketSeconds: 900, buckets: 96 },
  week: { bucketSeconds: 3600, buckets: 168 },
};

export interface ActivityWindow {
  bucketSeconds: number;
  buckets: number;
  /** The first bucket's start: buckets are aligned to their width, the last one holds `now`. */
  from: Date;
  /** The last bucket's end. */
  to: Date;
}

/** Aligned buckets, so two calls a few seconds apart draw the same bars (and a chart does not jitter). */
export function activityWindow(range: ActivityRange, now: Date): ActivityWindow {
  const { bucketSeconds, buckets } = SHAPES[range];
  const width = bucketSeconds * 1000;
  const lastStart = Math.floor(now.getTime() / width) * width;
  return { bucketSeconds, buckets, from: new Date(lastStart - (buckets - 1) * width), to: new Date(lastStart + width) };
}
