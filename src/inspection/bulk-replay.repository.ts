import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { BulkReplayRequest } from './bulk-replay-request.js';
import { logReplays } from './event-history-sql.js';
import { eventConditions, keysetCondition, whereAll } from './message-filter-sql.js';
import type { PageCursor } from './page-cursor.js';

export interface ReplayBatch {
  replayed: number;
  /** The batch's last row in (received_at, message_id) order, where the next batch starts after. */
  last: PageCursor | null;
}

/**
 * The bulk replay's SQL: one batch per statement, i.e. a short transaction of its own. Rows are
 * taken oldest first by keyset, FOR UPDATE SKIP LOCKED: a row a worker holds is skipped rather
 * than waited for, and the next batch starts after this one's last row, so a row replayed (and
 * maybe processed again meanwhile) is never taken twice by one request.
 */
@Injectable()
export class BulkReplayRepository {
  constructor(private readonly prisma: PrismaService) {}

  async count(request: BulkReplayRequest): Promise<number> {
    const [row] = request.destination === null
      ? await this.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM messages m ${whereAll(eventSelection(request))}`
      : await this.prisma.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM destination_jobs j JOIN messages m ON m.message_id = j.message_id
          ${whereAll(deliverySelection(request, request.destination))}`;
    return row.n;
  }

  replayBatch(request: BulkReplayRequest, after: PageCursor | null, size: number): Promise<ReplayBatch> {
    return request.destination === null ? this.replayEvents(request, after, size) : this.replayDeliveries(request, request.destination, after, size);
  }

  /** Wakes idle workers (LISTEN) at once; they would otherwise find the rows at their next poll. */
  async wakeWorkers(request: BulkReplayRequest): Promise<void> {
    await this.prisma.$executeRaw`SELECT pg_notify(${request.destination === null ? 'messages_inbox' : 'destination_jobs'}, '')`;
  }

  /** As the single replay does, per row: attempts reset; fromStart also forgets the steps and counts a replay. */
  private async replayEvents(request: BulkReplayRequest, after: PageCursor | null, size: number): Promise<ReplayBatch> {
    const conditions = eventSelection(request);
    if (after) conditions.push(keysetCondition(after, '>'));
    const forgetSteps = request.fromStart
      ? Prisma.sql`, cleared AS (DELETE FROM message_steps s USING replayed r WHERE s.message_id = r.message_id)`
      : Prisma.empty;
    const rows = await this.prisma.$queryRaw<BatchRow[]>`
      WITH batch AS (
        SELECT m.message_id, m.received_at FROM messages m ${whereAll(conditions)}
        ORDER BY m.received_at, m.message_id LIMIT ${size}
        FOR UPDATE OF m SKIP LOCKED
      ), replayed AS (
        UPDATE messages m SET status = 'received', attempts = 0, due_at = now(), lease_token = NULL, leased_by = NULL, processed_at = NULL,
          replays = m.replays + ${request.fromStart ? 1 : 0}::int
        FROM batch b WHERE m.message_id = b.message_id
        RETURNING m.message_id
      )${forgetSteps}${logReplays('replayed', { fromStart: request.fromStart, destination: null })}
      ${BATCH_SUMMARY}`;
    return toBatch(rows[0]);
  }

  /**
   * Dead or failed deliveries go out again under the same key. fromStart counts a replay on the
   * event and resets the delivery for it, as DestinationJobsRepository.create does for a newer
   * replay, so it goes out under <id>:replay-<n>; the event row is locked too, and must be
   * processed: one still waiting or running would carry the new number into its own steps.
   */
  private async replayDeliveries(request: BulkReplayRequest, destination: string, after: PageCursor | null, size: number): Promise<ReplayBatch> {
    const conditions = deliverySelection(request, destination);
    if (after) conditions.push(keysetCondition(after, '>'));
    const { fromStart } = request;
    const rows = await this.prisma.$queryRaw<BatchRow[]>`
      WITH batch AS (
        SELECT j.message_id, m.received_at, m.replays + 1 AS next_replay
        FROM destination_jobs j JOIN messages m ON m.message_id = j.message_id ${whereAll(conditions)}
        ORDER BY m.received_at, m.message_id LIMIT ${size}
        FOR UPDATE OF j${fromStart ? Prisma.sql`, m` : Prisma.empty} SKIP LOCKED
      ), ${fromStart ? Prisma.sql`counted AS (UPDATE messages m SET replays = b.next_replay FROM batch b WHERE m.message_id = b.message_id), ` : Prisma.empty}
      replayed AS (
        UPDATE destination_jobs j SET status = 'received', attempts = 0, due_at = now(), lease_token = NULL, leased_by = NULL
          ${fromStart ? Prisma.sql`, replay = b.next_replay, last_error = NULL, result = NULL, completed_at = NULL` : Prisma.empty}
        FROM batch b WHERE j.message_id = b.message_id AND j.destination = ${destination}
        RETURNING j.message_id
      )${logReplays('replayed', { fromStart, destination })}
      ${BATCH_SUMMARY}`;
    return toBatch(rows[0]);
  }
}

interface BatchRow {
  replayed: number;
  last_us: string | null;
  last_id: string | null;
}

const BATCH_SUMMARY = Prisma.sql`
  SELECT (SELECT count(*)::int FROM replayed) AS replayed, last.last_us, last.last_id
  FROM (SELECT 1) AS one LEFT JOIN LATERAL (
    SELECT (extract(epoch FROM received_at) * 1000000)::bigint::text AS last_us, message_id AS last_id
    FROM batch ORDER BY received_at DESC, message_id DESC LIMIT 1
  ) AS last ON true`;

function toBatch(row: BatchRow): ReplayBatch {
  return { replayed: row.replayed, last: row.last_us === null || row.last_id === null ? null : { receivedAtMicros: row.last_us, id: row.last_id } };
}

function eventSelection(request: BulkReplayRequest): Prisma.Sql[] {
  return [...eventConditions(request.filter), Prisma.sql`m.status = ANY(${request.statuses}::message_status[])`];
}

function deliverySelection(request: BulkReplayRequest, destination: string): Prisma.Sql[] {
  const conditions = [
    ...eventConditions(request.filter),
    Prisma.sql`j.destination = ${destination}`,
    Prisma.sql`j.status = ANY(${request.statuses}::message_status[])`,
  ];
  if (request.fromStart) conditions.push(Prisma.sql`m.status = 'processed'`);
  return conditions;
}
