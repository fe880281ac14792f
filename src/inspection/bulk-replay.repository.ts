import { Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import { Database } from '../database/database.js';
import type { DB } from '../database/tables.js';
import { replayDeliveryBatch } from '../destinations/destination-jobs.sql.js';
import { replayEventBatch, wakeWorkers, type BatchRow } from '../messages/replay.sql.js';
import type { BulkReplayRequest } from './bulk-replay-request.js';
import { eventConditions, keysetCondition, m, statusIn, type Condition } from './message-filter-sql.js';
import type { PageCursor } from './page-cursor.js';

export interface ReplayBatch {
  replayed: number;
  /** The batch's last row in (received_at, message_id) order, where the next batch starts after. */
  last: PageCursor | null;
}

/** How many rows a bulk replay would take: events, or their deliveries to one destination. */
export function countReplayable(db: Kysely<DB>, request: BulkReplayRequest) {
  const count = sql<number>`count(*)::int`.as('n');
  return request.destination === null
    ? db.selectFrom('messages as m').select(count).where((eb) => eb.and(eventSelection(request)))
    : db
        .selectFrom('destination_jobs as j')
        .innerJoin('messages as m', 'm.message_id', 'j.message_id')
        .select(count)
        .where((eb) => eb.and(deliverySelection(request, request.destination!)));
}

/**
 * The bulk replay: one batch per statement, i.e. a short transaction of its own. Rows are
 * taken oldest first by keyset, FOR UPDATE SKIP LOCKED: a row a worker holds is skipped rather
 * than waited for, and the next batch starts after this one's last row, so a row replayed (and
 * maybe processed again meanwhile) is never taken twice by one request. The statements are
 * their tables' (replay.sql.ts, destination-jobs.sql.ts).
 */
@Injectable()
export class BulkReplayRepository {
  constructor(private readonly db: Database) {}

  async count(request: BulkReplayRequest): Promise<number> {
    return (await countReplayable(this.db, request).executeTakeFirstOrThrow()).n;
  }

  async replayBatch(request: BulkReplayRequest, after: PageCursor | null, size: number): Promise<ReplayBatch> {
    const { destination, fromStart } = request;
    const conditions = destination === null ? eventSelection(request) : deliverySelection(request, destination);
    if (after) conditions.push(keysetCondition(after, '>'));
    const statement = destination === null ? replayEventBatch(conditions, size, fromStart) : replayDeliveryBatch(conditions, destination, size, fromStart);
    const { rows } = await statement.execute(this.db);
    return toBatch(rows[0]);
  }

  /** Wakes idle workers (LISTEN) at once; they would otherwise find the rows at their next poll. */
  async wakeWorkers(request: BulkReplayRequest): Promise<void> {
    await wakeWorkers(request.destination === null ? 'messages_inbox' : 'destination_jobs').execute(this.db);
  }
}

function toBatch(row: BatchRow): ReplayBatch {
  return { replayed: row.replayed, last: row.last_us === null || row.last_id === null ? null : { receivedAtMicros: row.last_us, id: row.last_id } };
}

function eventSelection(request: BulkReplayRequest): Condition[] {
  return [...eventConditions(request.filter), statusIn('m', request.statuses)];
}

/** fromStart replays only deliveries of processed events: one still waiting or running would carry the new number into its own steps. */
function deliverySelection(request: BulkReplayRequest, destination: string): Condition[] {
  const conditions = [...eventConditions(request.filter), m('j.destination', '=', destination), statusIn('j', request.statuses)];
  if (request.fromStart) conditions.push(m('m.status', '=', 'processed'));
  return conditions;
}
