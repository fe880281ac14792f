import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Messages } from '../database/tables.js';

/**
 * The statements that put finished events back to work (POST /messages/{id}/replay, the bulk
 * replay), and the pieces the deliveries' replays share with them.
 */

/** The "reset to received": back in the queue, due now, attempts and lease forgotten. Written once, for every replay of an event. */
export const RESET_EVENT = sql`status = 'received', attempts = 0, due_at = now(), lease_token = NULL, leased_by = NULL, processed_at = NULL`;

/**
 * A CTE that records, in the event's history (its timeline), a replay of every row the CTE
 * `from` returned (message_id, and destination for 'each row’s'): a whole event's (from its
 * first incomplete step, or from the start) or one delivery's. Appended to the replay
 * statements, so it commits with them.
 */
export function logReplays(from: 'replayed' | 'target', how: { fromStart: boolean; destination: string | null | 'each row’s' }): RawBuilder<unknown> {
  const kind = how.fromStart ? 'replay-start' : 'replay';
  const destination = how.destination === 'each row’s' ? sql`destination` : sql`${how.destination}::text`;
  return sql`, logged_replays AS (
    INSERT INTO event_history (message_id, kind, destination)
    SELECT message_id, ${kind}, ${destination} FROM ${sql.raw(from)})`;
}

/**
 * A CTE for a bulk replay of deliveries from the start: counts a replay on each event of the
 * CTE `batch` (its message_id and next_replay), in the same statement as the deliveries' reset.
 */
export const COUNT_BATCH_REPLAYS = sql`counted AS (UPDATE messages m SET replays = b.next_replay FROM batch b WHERE m.message_id = b.message_id), `;

/** One batch of a bulk replay: rows replayed, and the batch's last position in (received_at, message_id) order. */
export interface BatchRow {
  replayed: number;
  last_us: string | null;
  last_id: string | null;
}

/** Ends a batch statement whose CTEs `batch` (the rows taken) and `replayed` (the rows changed) came before. */
export const BATCH_SUMMARY = sql`
  SELECT (SELECT count(*)::int FROM replayed) AS replayed, last.last_us, last.last_id
  FROM (SELECT 1) AS one LEFT JOIN LATERAL (
    SELECT (extract(epoch FROM received_at) * 1000000)::bigint::text AS last_us, message_id AS last_id
    FROM batch ORDER BY received_at DESC, message_id DESC LIMIT 1
  ) AS last ON true`;

/**
 * Puts one finished event back to work if it is in one of `from` (compare-and-set); `clearSteps`
 * forgets its recovery points and counts a replay. Returns the steps kept and the replay number.
 */
export function replayEvent(id: string, from: readonly string[], clearSteps: boolean) {
  return sql<Pick<Messages, 'message_id'> & { replays: number; kept: string[] }>`
    WITH target AS (
      UPDATE messages SET ${RESET_EVENT},
        replays = replays + CASE WHEN ${clearSteps}::boolean THEN 1 ELSE 0 END
      WHERE message_id = ${id} AND status::text = ANY(${from}::text[])
      RETURNING message_id, replays
    ), cleared AS (
      DELETE FROM message_steps WHERE ${clearSteps}::boolean AND message_id IN (SELECT message_id FROM target)
    )${logReplays('target', { fromStart: clearSteps, destination: null })}
    SELECT t.message_id, t.replays,
      CASE WHEN ${clearSteps}::boolean THEN ARRAY[]::text[]
        ELSE (SELECT coalesce(array_agg(s.step ORDER BY s.completed_at), ARRAY[]::text[]) FROM message_steps s WHERE s.message_id = t.message_id) END AS kept
    FROM target t`;
}

/**
 * One batch of a bulk replay of events: the oldest `size` rows of `messages m` meeting every
 * condition, FOR UPDATE SKIP LOCKED (a row a worker holds is skipped, not waited for), as the
 * single replay does per row; fromStart also forgets the steps and counts a replay.
 */
export function replayEventBatch(conditions: readonly Expression<SqlBool>[], size: number, fromStart: boolean) {
  const forgetSteps = fromStart ? sql`, cleared AS (DELETE FROM message_steps s USING replayed r WHERE s.message_id = r.message_id)` : sql``;
  return sql<BatchRow>`
    WITH batch AS (
      SELECT m.message_id, m.received_at FROM messages m ${whereAll(conditions)}
      ORDER BY m.received_at, m.message_id LIMIT ${size}
      FOR UPDATE OF m SKIP LOCKED
    ), replayed AS (
      UPDATE messages m SET ${RESET_EVENT},
        replays = m.replays + ${fromStart ? 1 : 0}::int
      FROM batch b WHERE m.message_id = b.message_id
      RETURNING m.message_id
    )${forgetSteps}${logReplays('replayed', { fromStart, destination: null })}
    ${BATCH_SUMMARY}`;
}

/** `WHERE` and every condition, or nothing. */
export function whereAll(conditions: readonly Expression<SqlBool>[]): RawBuilder<unknown> {
  return conditions.length > 0 ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
}

/** Wakes idle workers of a queue (LISTEN) at once; they would otherwise find the rows at their next poll. */
export function wakeWorkers(channel: 'messages_inbox' | 'destination_jobs') {
  return sql`SELECT pg_notify(${channel}, '')`;
}
