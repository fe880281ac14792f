import { Injectable } from '@nestjs/common';
import { sql, type InferResult, type Kysely, type SqlBool } from 'kysely';
import { Database } from '../database/database.js';
import type { DB } from '../database/tables.js';
import { replayDeliveriesOf } from '../destinations/destination-jobs.sql.js';
import { replayEvent, wakeWorkers } from '../messages/replay.sql.js';
import type { HistoryRow } from './event-timeline.js';
import { eventConditions, keysetCondition, m, type Condition } from './message-filter-sql.js';
import type { MessageFilter, MessageStatus } from './message-views.js';
import type { PageCursor } from './page-cursor.js';

/** JSON built by the detail query (jsonb_build_object): its times arrive as text, not as the table's Dates. */
export interface DestinationRow {
  destination: string;
  status: MessageStatus;
  attempts: number;
  last_error: string | null;
  result: unknown;
  due_at: string;
  completed_at: string | null;
  replay: number;
  broke_order: boolean;
}

export interface StepRow {
  step: string;
  attempt: number;
  completed_at: string;
  result: unknown;
}

/** The most recent history rows shown: an event replayed or failing for weeks would otherwise grow without bound. */
const HISTORY_LIMIT = 500;

const SUMMARY = [
  'm.message_id', 'm.provider', 'm.kind', 'm.type', 'm.sender', 'm.user_id', 'm.tenant', 'm.from_me', 'm.authenticated', 'm.replays',
  'm.provider_timestamp', 'm.status', 'm.attempts', 'm.last_error', 'm.duplicate_count', 'm.received_at', 'm.last_duplicate_at', 'm.processed_at',
  sql<string>`(extract(epoch FROM m.received_at) * 1000000)::bigint::text`.as('received_at_us'),
] as const;

/**
 * Newest first by (received_at, message_id), continuing strictly after `after`: keyset
 * pagination, so rows arriving while a client pages (all newer than its cursor) neither
 * repeat nor shift the pages. Reads one row more than `limit` to know whether more follow.
 */
export function listEvents(db: Kysely<DB>, filter: MessageFilter, limit: number, after: PageCursor | null) {
  const conditions = eventConditions(filter);
  if (filter.destination !== undefined) {
    // A delivery's status, not the event's: an event whose delivery died is itself processed.
    const status = filter.status === undefined ? sql`` : sql`AND j.status = ${filter.status}::message_status`;
    conditions.push(sql<SqlBool>`EXISTS (SELECT 1 FROM destination_jobs j WHERE j.message_id = m.message_id AND j.destination = ${filter.destination} ${status})`);
  } else if (filter.status) {
    conditions.push(m('m.status', '=', filter.status));
  }
  if (after) conditions.push(keysetCondition(after, '<'));
  return db.selectFrom('messages as m').select(SUMMARY).where(allOf(conditions))
    .orderBy('m.received_at', 'desc').orderBy('m.message_id', 'desc').limit(limit + 1);
}

export type MessageRow = InferResult<ReturnType<typeof listEvents>>[number];
export type MessageDetailRow = MessageRow & { payload: unknown; steps: StepRow[]; destinations: DestinationRow[]; history: HistoryRow[] };

/** One event with its steps, its deliveries and the latest of its history, in one statement. */
export function findEvent(db: Kysely<DB>, id: string) {
  return db.selectFrom('messages as m').where('m.message_id', '=', id).select([
    ...SUMMARY, 'm.payload',
    sql<StepRow[]>`(SELECT coalesce(jsonb_agg(jsonb_build_object('step', s.step, 'attempt', s.attempt, 'completed_at', s.completed_at, 'result', s.result)
       ORDER BY s.completed_at), '[]'::jsonb) FROM message_steps s WHERE s.message_id = m.message_id)`.as('steps'),
    sql<DestinationRow[]>`(SELECT coalesce(jsonb_agg(jsonb_build_object('destination', j.destination, 'status', j.status, 'attempts', j.attempts,
       'last_error', j.last_error, 'result', j.result, 'due_at', j.due_at, 'completed_at', j.completed_at, 'replay', j.replay,
       -- A dead head of an ordered conversation that a later event of it went past.
       'broke_order', j.status = 'dead' AND j.conversation IS NOT NULL AND EXISTS (SELECT 1 FROM destination_jobs n
         WHERE n.destination = j.destination AND n.conversation = j.conversation AND n.status <> 'received'
           AND (n.ordered_at, n.received_at, n.message_id) > (j.ordered_at, j.received_at, j.message_id)))
       ORDER BY j.destination), '[]'::jsonb) FROM destination_jobs j WHERE j.message_id = m.message_id)`.as('destinations'),
    sql<HistoryRow[]>`(SELECT coalesce(jsonb_agg(to_jsonb(h) - 'id' - 'message_id' ORDER BY h.id), '[]'::jsonb) FROM (
       SELECT * FROM event_history WHERE message_id = m.message_id ORDER BY id DESC LIMIT ${HISTORY_LIMIT}) h)`.as('history'),
  ]);
}

/** Counts for the whole table (or one tenant's events) in one pass: by status, source, kind, and in all. */
export function eventCounts(db: Kysely<DB>, tenant?: string) {
  return db.selectFrom('messages').where(allOf(tenant === undefined ? [] : [sql<SqlBool>`tenant = ${tenant}`]))
    .select([
      sql<MessageStatus | null>`status::text`.as('status'), sql<string | null>`provider::text`.as('provider'), sql<string | null>`kind::text`.as('kind'),
      sql<number>`count(*)::int`.as('n'), sql<number>`coalesce(sum(duplicate_count), 0)::float8`.as('duplicates'),
    ])
    .groupBy(sql`GROUPING SETS ((status), (provider), (kind), ())`);
}

/** The oldest unfinished event (of one tenant). */
export function oldestUnfinished(db: Kysely<DB>, tenant?: string) {
  return db.selectFrom('messages')
    .select([sql<Date | null>`min(received_at)`.as('received_at'), sql<number | null>`extract(epoch FROM now() - min(received_at))::float8`.as('age_seconds')])
    .where('status', 'in', ['received', 'processing', 'failed'])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!));
}

/** Deliveries per destination and status (of one tenant's events). */
export function deliveryCounts(db: Kysely<DB>, tenant?: string) {
  return db.selectFrom('destination_jobs as j')
    .$if(tenant !== undefined, (q) => q.innerJoin('messages as m', (join) => join.onRef('m.message_id', '=', 'j.message_id').on('m.tenant', '=', tenant!)))
    .select(['j.destination', 'j.status', sql<number>`count(*)::int`.as('n')])
    .groupBy(['j.destination', 'j.status']);
}

export function statusOf(db: Kysely<DB>, id: string) {
  return db.selectFrom('messages').select('status').where('message_id', '=', id);
}

/** Every condition (none: every row). */
function allOf(conditions: Condition[]) {
  return sql<SqlBool>`${conditions.length > 0 ? sql.join(conditions, sql` AND `) : sql`true`}`;
}

/** The SQL behind the operator API: read-only views of the inbox, and replay (the writes are their tables': replay.sql.ts, destination-jobs.sql.ts). */
@Injectable()
export class MessageInspectionRepository {
  constructor(private readonly db: Database) {}

  list(filter: MessageFilter, limit: number, after: PageCursor | null): Promise<MessageRow[]> {
    return listEvents(this.db, filter, limit, after).execute();
  }

  async find(id: string): Promise<MessageDetailRow | null> {
    return (await findEvent(this.db, id).executeTakeFirst()) ?? null;
  }

  async stats(tenant?: string) {
    const groups = await eventCounts(this.db, tenant).execute();
    const oldest = await oldestUnfinished(this.db, tenant).executeTakeFirst();
    const destinations = await deliveryCounts(this.db, tenant).execute();
    return { groups, oldest, destinations };
  }

  /**
   * Puts an event's dead or failed deliveries (to one destination, or to all) back to work,
   * attempts reset: the same effect, finished late, under the same key. Returns the destinations.
   */
  async replayDeliveries(id: string, destination: string | undefined): Promise<string[]> {
    const { rows } = await replayDeliveriesOf(id, destination).execute(this.db);
    if (rows.length > 0) await wakeWorkers('destination_jobs').execute(this.db);
    return rows.map((r) => r.destination).sort();
  }

  /**
   * Puts a finished event back to work, attempts reset, only if it is in one of `from`
   * (compare-and-set: a worker leasing it at the same moment wins or loses as a whole).
   * `clearSteps` forgets its recovery points so every step runs again, and counts a replay:
   * a deliberate second effect, carried out under a new key. Returns the steps kept and the
   * replay number, or null when the event was not in one of those states.
   */
  async replay(id: string, from: MessageStatus[], clearSteps: boolean): Promise<{ kept: string[]; replay: number } | null> {
    const { rows } = await replayEvent(id, from, clearSteps).execute(this.db);
    if (rows.length === 0) return null;
    await wakeWorkers('messages_inbox').execute(this.db); // wake an idle worker now
    return { kept: rows[0].kept, replay: rows[0].replays };
  }

  async statusOf(id: string): Promise<MessageStatus | null> {
    return (await statusOf(this.db, id).executeTakeFirst())?.status ?? null;
  }
}
