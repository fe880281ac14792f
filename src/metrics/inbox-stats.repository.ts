import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';
import { toInboxStats, type InboxStats, type InboxStatusRow } from './inbox-stats.js';

/** Reads the inbox's backlog for the metrics, at scrape time. */
@Injectable()
export class InboxStatsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * One statement: rows and oldest received_at per status, for the unfinished statuses and dead.
   * Processed rows (the bulk of the table) are never read: the condition on status is a range
   * of messages_status_received_at_idx (status, received_at), which also holds every column
   * used, so the scan stays inside the backlog (index-only once the table is vacuumed).
   */
  async read(): Promise<InboxStats> {
    const rows = await this.prisma.$queryRaw<InboxStatusRow[]>`
      SELECT status::text AS status, count(*)::int AS count,
        extract(epoch FROM now() - min(received_at))::float8 AS oldest_seconds
      FROM messages
      WHERE status IN ('received', 'processing', 'failed', 'dead')
      GROUP BY status`;
    return toInboxStats(rows);
  }
}
