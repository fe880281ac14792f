import { Injectable } from '@nestjs/common';
import type { SourceName } from '../sources/source-registry.js';
import { ActivityRepository, type ActivityCounts, type ActivityGroupRow } from './activity.repository.js';
import { activityWindow, type ActivityRange } from './activity-window.js';

export interface Activity {
  range: ActivityRange;
  bucketSeconds: number;
  from: string;
  to: string;
  buckets: Array<ActivityCounts & { start: string }>;
  totals: ActivityCounts;
  bySource: Array<ActivityCounts & { provider: string }>;
  byTenant: Array<ActivityCounts & { tenant: string | null }>;
}

/** Tenants shown by name; the rest are in the totals. */
const TOP_TENANTS = 20;
const ZERO: ActivityCounts = { accepted: 0, duplicates: 0, processed: 0, failed: 0, dead: 0 };

/** GROUPING() bits, in the order of GROUPING(bucket, provider, tenant): 1 = that column is not grouped. */
const BY_BUCKET = 0b011;
const BY_SOURCE = 0b101;
const BY_TENANT = 0b110;
const TOTAL = 0b111;

/**
 * Events over time for the console's overview: of the events received in the last hour, day or
 * week, how many were accepted, redelivered (duplicates suppressed), processed, failed and dead,
 * per bucket, per source and per tenant.
 */
@Injectable()
export class ActivityService {
  constructor(private readonly repository: ActivityRepository) {}

  async activity(range: ActivityRange, filter: { provider?: SourceName; tenant?: string }, now = new Date()): Promise<Activity> {
    const window = activityWindow(range, now);
    const { groups, processedByBucket } = await this.repository.counts(window, filter);
    const at = (grouping: number) => groups.filter((g) => g.grouping === grouping);
    const buckets = Array.from({ length: window.buckets }, (_, i) => ({
      start: new Date(window.from.getTime() + i * window.bucketSeconds * 1000).toISOString(), ...ZERO,
    }));
    for (const row of at(BY_BUCKET)) if (row.bucket !== null && buckets[row.bucket]) Object.assign(buckets[row.bucket], countsOf(row), { processed: 0 });
    for (const row of processedByBucket) if (buckets[row.bucket]) buckets[row.bucket].processed = row.processed;
    return {
      range,
      bucketSeconds: window.bucketSeconds,
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      buckets,
      totals: at(TOTAL).map(countsOf)[0] ?? { ...ZERO },
      bySource: at(BY_SOURCE).map((row) => ({ provider: row.provider!, ...countsOf(row) })).sort((a, b) => b.accepted - a.accepted),
      byTenant: at(BY_TENANT).map((row) => ({ tenant: row.tenant, ...countsOf(row) })).sort((a, b) => b.accepted - a.accepted).slice(0, TOP_TENANTS),
    };
  }
}

function countsOf(row: ActivityGroupRow): ActivityCounts {
  return { accepted: row.accepted, duplicates: row.duplicates, processed: row.processed, failed: row.failed, dead: row.dead };
}
