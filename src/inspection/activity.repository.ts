import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { ActivityWindow } from './activity-window.js';
import { eventConditions, whereAll } from './message-filter-sql.js';
import type { MessageFilter } from './message-views.js';

export interface ActivityCounts {
  accepted: number;
  duplicates: number;
  processed: number;
  failed: number;
  dead: number;
}

export type ActivityGroupRow = ActivityCounts & { bucket: number | null; provider: string | null; tenant: string | null; grouping: number };

/**
 * Counts over the events received in a window, in one pass over the received_at index: by
 * bucket of receipt, by source and by tenant. `processed` per bucket is by processing time
 * (`processed_bucket`), so a backlog worked off shows where it was worked off.
 */
@Injectable()
export class ActivityRepository {
  constructor(private readonly prisma: PrismaService) {}

  async counts(window: ActivityWindow, filter: Pick<MessageFilter, 'provider' | 'tenant'>): Promise<{ groups: ActivityGroupRow[]; processedByBucket: Array<{ bucket: number; processed: number }> }> {
    const conditions = [...eventConditions(filter), Prisma.sql`m.received_at >= ${window.from} AND m.received_at < ${window.to}`];
    const bucketOf = (column: Prisma.Sql) => Prisma.sql`floor(extract(epoch FROM ${column} - ${window.from}::timestamptz) / ${window.bucketSeconds})::int`;
    const groups = await this.prisma.$queryRaw<ActivityGroupRow[]>`
      SELECT bucket, provider, tenant, GROUPING(bucket, provider, tenant)::int AS grouping,
        count(*)::int AS accepted, coalesce(sum(duplicate_count), 0)::int AS duplicates,
        count(*) FILTER (WHERE status = 'processed')::int AS processed,
        count(*) FILTER (WHERE status = 'failed')::int AS failed, count(*) FILTER (WHERE status = 'dead')::int AS dead
      FROM (SELECT ${bucketOf(Prisma.sql`m.received_at`)} AS bucket, m.provider::text AS provider, m.tenant, m.status, m.duplicate_count
            FROM messages m ${whereAll(conditions)}) w
      GROUP BY GROUPING SETS ((bucket), (provider), (tenant), ())`;
    const processedByBucket = await this.prisma.$queryRaw<Array<{ bucket: number; processed: number }>>`
      SELECT ${bucketOf(Prisma.sql`m.processed_at`)} AS bucket, count(*)::int AS processed
      FROM messages m ${whereAll([...conditions, Prisma.sql`m.status = 'processed' AND m.processed_at < ${window.to}`])}
      GROUP BY 1`;
    return { groups, processedByBucket };
  }
}
