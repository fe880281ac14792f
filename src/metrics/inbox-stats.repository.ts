import { Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import { Database } from '../database/database.js';
import type { DB } from '../database/tables.js';
import { toInboxStats, type InboxStats } from './inbox-stats.js';

/**
 * Rows and oldest received_at per status, for the unfinished statuses and dead. Processed rows
 * (the bulk of the table) are never read: the condition on status is a range of
 * messages_status_received_at_idx (status, received_at), which also holds every column used,
 * so the scan stays inside the backlog (index-only once the table is vacuumed).
 */
export function inboxStatusCounts(db: Kysely<DB>) {
  return db
    .selectFrom('messages')
    .select(['status', sql<number>`count(*)::int`.as('count'), sql<number | null>`extract(epoch FROM now() - min(received_at))::float8`.as('oldest_seconds')])
    .where('status', 'in', ['received', 'processing', 'failed', 'dead'])
    .groupBy('status');
}

/** Reads the inbox's backlog for the metrics, at scrape time. */
@Injectable()
export class InboxStatsRepository {
  constructor(private readonly db: Database) {}

  async read(): Promise<InboxStats> {
    return toInboxStats(await inboxStatusCounts(this.db).execute());
  }
}
