import { Injectable } from '@nestjs/common';
import { sql, type InferResult, type Kysely } from 'kysely';
import { Database } from '../database/database.js';
import type { DB } from '../database/tables.js';
import type { ActivityWindow } from './activity-window.js';
import { eventConditions, m, type Condition } from './message-filter-sql.js';
import type { MessageFilter } from './message-views.js';

export interface ActivityCounts {
  accepted: number;
  duplicates: number;
  processed: number;
  failed: number;
  dead: number;
}

type ActivityFilter = Pick<MessageFilter, 'provider' | 'tenant'>;

/** The events received in the window that meet the filter. */
function inWindow(window: ActivityWindow, filter: ActivityFilter): Condition[] {
  return [...eventConditions(filter), m('m.received_at', '>=', window.from), m('m.received_at', '<', window.to)];
}

/** The bucket a time falls in: whole bucket widths since the window's start. */
function bucketOf(window: ActivityWindow, column: 'm.received_at' | 'm.processed_at') {
  return sql<number>`floor(extract(epoch FROM ${sql.ref(column)} - ${window.from}::timestamptz) / ${window.bucketSeconds})::int`;
}

/** Counts by bucket of receipt, by source, by tenant and in all (GROUPING tells which). */
export function activityGroups(db: Kysely<DB>, window: ActivityWindow, filter: ActivityFilter) {
  const w = db
    .selectFrom('messages as m')
    .select([bucketOf(window, 'm.received_at').as('bucket'), sql<string>`m.provider::text`.as('provider'), 'm.tenant', 'm.status', 'm.duplicate_count'])
    .where((eb) => eb.and(inWindow(window, filter)))
    .as('w');
  return db
    .selectFrom(w)
    .select([
      sql<number | null>`bucket`.as('bucket'), sql<string | null>`provider`.as('provider'), sql<string | null>`tenant`.as('tenant'),
      sql<number>`GROUPING(bucket, provider, tenant)::int`.as('grouping'),
      sql<number>`count(*)::int`.as('accepted'), sql<number>`coalesce(sum(duplicate_count), 0)::int`.as('duplicates'),
      sql<number>`count(*) FILTER (WHERE status = 'processed')::int`.as('processed'),
      sql<number>`count(*) FILTER (WHERE status = 'failed')::int`.as('failed'), sql<number>`count(*) FILTER (WHERE status = 'dead')::int`.as('dead'),
    ])
    .groupBy(sql`GROUPING SETS ((bucket), (provider), (tenant), ())`);
}

/** Events processed per bucket, by processing time: a backlog worked off shows where it was worked off. */
export function processedByBucket(db: Kysely<DB>, window: ActivityWindow, filter: ActivityFilter) {
  return db
    .selectFrom('messages as m')
    .select([bucketOf(window, 'm.processed_at').as('bucket'), sql<number>`count(*)::int`.as('processed')])
    .where((eb) => eb.and([...inWindow(window, filter), m('m.status', '=', 'processed'), m('m.processed_at', '<', window.to)]))
    .groupBy(sql`1`);
}

export type ActivityGroupRow = InferResult<ReturnType<typeof activityGroups>>[number];

/**
 * Counts over the events received in a window, in one pass over the received_at index: by
 * bucket of receipt, by source and by tenant. `processed` per bucket is by processing time
 * (`processed_bucket`), so a backlog worked off shows where it was worked off.
 */
@Injectable()
export class ActivityRepository {
  constructor(private readonly db: Database) {}

  async counts(window: ActivityWindow, filter: ActivityFilter) {
    const groups = await activityGroups(this.db, window, filter).execute();
    return { groups, processedByBucket: await processedByBucket(this.db, window, filter).execute() };
  }
}
