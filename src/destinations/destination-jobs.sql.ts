import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { DB, DestinationJobs } from '../database/tables.js';
import { BATCH_SUMMARY, COUNT_BATCH_REPLAYS, logReplays, whereAll, type BatchRow } from '../messages/replay.sql.js';
import type { NewDelivery } from './leased-delivery.js';

/**
 * The statements that make and replay deliveries (destination_jobs) outside a lease; the
 * lease and its writes are the queue's (delivery-queue.sql.ts).
 */

/** The "reset to received" of a delivery: back in the queue, due now, attempts and lease forgotten. Written once, for every replay. */
export const RESET_DELIVERY = sql`status = 'received', attempts = 0, due_at = now(), lease_token = NULL, leased_by = NULL`;
/** What a delivery made for an earlier replay also forgets: it goes out again under the new key. */
const FORGET_OUTCOME = sql`last_error = NULL, result = NULL, completed_at = NULL`;

/**
 * The deliveries of one event for its `replay`. A delivery it already has for that replay is
 * left as it is (a fan-out retried after a crash); one made for an earlier replay starts again.
 * `deliveries` must be sorted by destination (the lock order).
 */
export function createDeliveries(messageId: string, deliveries: readonly NewDelivery[], replay: number, order: { at: Date; receivedAt: Date }) {
  return sql`
    INSERT INTO destination_jobs AS j (message_id, destination, conversation, after_message_id, replay, ordered_at, received_at)
    SELECT ${messageId}::text, d.destination, d.conversation, d.after, ${replay}::int, ${order.at.toISOString()}::timestamptz,
      ${order.receivedAt.toISOString()}::timestamptz
    FROM unnest(${deliveries.map((d) => d.destination)}::text[], ${deliveries.map((d) => d.conversation)}::text[], ${deliveries.map((d) => d.after)}::text[])
      AS d(destination, conversation, after)
    ON CONFLICT (message_id, destination) DO UPDATE SET
      replay = EXCLUDED.replay, ${RESET_DELIVERY}, ${FORGET_OUTCOME}
    WHERE j.replay < EXCLUDED.replay`;
}

/** An event's dead or failed deliveries (to one destination, or to all) back to work, under the same key. */
export function replayDeliveriesOf(id: string, destination: string | undefined) {
  return sql<Pick<DestinationJobs, 'destination'>>`
    WITH replayed AS (
      UPDATE destination_jobs SET ${RESET_DELIVERY}
      WHERE message_id = ${id} AND status IN ('dead', 'failed') AND (${destination ?? null}::text IS NULL OR destination = ${destination ?? null}::text)
      RETURNING message_id, destination
    )${logReplays('replayed', { fromStart: false, destination: 'each row’s' })}
    SELECT destination FROM replayed`;
}

/**
 * One batch of a bulk replay of deliveries to `destination`: the oldest `size` rows of
 * `destination_jobs j JOIN messages m` meeting every condition, FOR UPDATE SKIP LOCKED.
 * fromStart counts a replay on the event and resets the delivery for it, as createDeliveries
 * does for a newer replay, so it goes out under <id>:replay-<n>; the event row is locked too.
 */
export function replayDeliveryBatch(conditions: readonly Expression<SqlBool>[], destination: string, size: number, fromStart: boolean) {
  return sql<BatchRow>`
    WITH batch AS (
      SELECT j.message_id, m.received_at, m.replays + 1 AS next_replay
      FROM destination_jobs j JOIN messages m ON m.message_id = j.message_id ${whereAll(conditions)}
      ORDER BY m.received_at, m.message_id LIMIT ${size}
      FOR UPDATE OF j${fromStart ? sql`, m` : sql``} SKIP LOCKED
    ), ${fromStart ? COUNT_BATCH_REPLAYS : sql``}
    replayed AS (
      UPDATE destination_jobs j SET ${RESET_DELIVERY}
        ${fromStart ? sql`, replay = b.next_replay, ${FORGET_OUTCOME}` : sql``}
      FROM batch b WHERE j.message_id = b.message_id AND j.destination = ${destination}
      RETURNING j.message_id
    )${logReplays('replayed', { fromStart, destination })}
    ${BATCH_SUMMARY}`;
}

/** Per destination: deliveries not finished (and the oldest one's age) through destination_jobs_due_idx, and dead ones (a scan). */
export function backlogByDestination(db: Kysely<DB>) {
  return db.selectFrom('destination_jobs').where('status', '<>', 'processed').groupBy('destination').select([
    'destination',
    sql<number>`count(*) FILTER (WHERE status IN ('received', 'processing', 'failed'))::int`.as('backlog'),
    sql<number>`count(*) FILTER (WHERE status = 'dead')::int`.as('dead'),
    sql<number | null>`extract(epoch FROM now() - min(created_at) FILTER (WHERE status IN ('received', 'processing', 'failed')))::float8`.as('oldest_age'),
  ]);
}
