import { sql, type Selectable } from 'kysely';
import { PreparedStatement } from '../database/prepared-statement.js';
import type { Messages } from '../database/tables.js';
import type { EventRow } from './event-row.js';
import { QueueStatements } from '../queue/queue-statements.js';

/** The inbox's table as a queue: one event per row. Its statements are compiled once: a call binds its values. */
export const INBOX = new QueueStatements({ name: 'messages', alias: 'm', keys: ['message_id'] });

type Queued = Selectable<Messages>;

/** A leased (or, its last attempt spent, dead) event with the step records its earlier attempts left. */
export type LeasedEventRow = EventRow &
  Pick<Queued, 'replays' | 'attempts' | 'lease_token'> & { status: Extract<Queued['status'], 'processing' | 'dead'>; completed: Record<string, unknown> };

/** WorkQueueRepository.lease: up to `limit` due events, oldest due first, skipping rows another worker holds. */
export const leaseEvents = new PreparedStatement(
  (_, p: { maxAttempts: number; limit: number; workerId: string; leaseSeconds: number }) => sql<LeasedEventRow>`
      WITH due AS (
        SELECT message_id, (status = 'processing' AND attempts >= ${p.maxAttempts}::int) AS exhausted
        FROM messages
        WHERE status IN ('received', 'processing', 'failed') AND due_at <= now()
        ORDER BY due_at
        LIMIT ${p.limit}::int
        FOR UPDATE SKIP LOCKED
      )
      ${INBOX.leaseUpdate(p.workerId, p.leaseSeconds, {
        returning: `m.message_id, m.provider::text, m.kind::text, m.type, m.sender, m.user_id, m.tenant, m.provider_timestamp, m.from_me, m.authenticated, m.replays, m.payload,
        m.received_at, m.attempts, m.status::text, m.lease_token::text,
        (SELECT coalesce(jsonb_object_agg(s.step, s.result), '{}'::jsonb) FROM message_steps s WHERE s.message_id = m.message_id) AS completed`,
      })}`,
);

/** StepRecord[], one array per field. */
export interface StepRecordArrays {
  keys: string[];
  tokens: string[];
  steps: (string | null)[];
  results: (string | null)[];
  attempts: number[];
  finish: boolean[];
}

/** WorkQueueRepository.record: the step rows and the processed status, where the lease still holds. Returns the keys written. */
export const recordSteps = new PreparedStatement(
  (_, r: StepRecordArrays) => sql<Pick<Queued, 'message_id'>>`
      WITH input AS (
        SELECT * FROM unnest(${r.keys}::text[], ${r.tokens}::uuid[],
          ${r.steps}::text[], ${r.results}::text[],
          ${r.attempts}::int[], ${r.finish}::bool[])
          AS i(message_id, token, step, result, attempt, finish)
      ), owned AS (
        SELECT i.* FROM input i JOIN messages m ON m.message_id = i.message_id AND m.lease_token = i.token
        ORDER BY i.message_id
        FOR UPDATE OF m
      ), recorded AS (
        INSERT INTO message_steps (message_id, step, result, attempt)
        SELECT message_id, step, result::jsonb, attempt FROM owned WHERE step IS NOT NULL
        ON CONFLICT (message_id, step) DO NOTHING
      ), finished AS (
        UPDATE messages m SET status = 'processed', processed_at = now(), lease_token = NULL, leased_by = NULL
        FROM owned o WHERE m.message_id = o.message_id AND o.finish
      )
      SELECT message_id FROM owned`,
);

/** AttemptFailure[], one array per field, and MAX_ATTEMPTS. */
export interface FailureArrays {
  keys: string[];
  tokens: string[];
  steps: string[];
  errors: string[];
  delays: number[];
  maxAttempts: number;
}

/**
 * WorkQueueRepository.fail: each retry scheduled, or dead after the last attempt, logged in
 * event_history. Rows are locked in key order, as claims lock them: a redelivery's claim and
 * this cannot deadlock.
 */
export const failAttempts = new PreparedStatement(
  (_, f: FailureArrays) => sql<Pick<Queued, 'message_id'> & { status: Extract<Queued['status'], 'failed' | 'dead'> }>`
      WITH f AS (
        SELECT * FROM unnest(${f.keys}::text[], ${f.tokens}::uuid[], ${f.steps}::text[],
          ${f.errors}::text[], ${f.delays}::int[]) AS f(message_id, token, step, error, delay_ms)
      ), owned AS (
        SELECT f.* FROM f JOIN messages m ON m.message_id = f.message_id AND m.lease_token = f.token
        ORDER BY f.message_id
        FOR UPDATE OF m
      ), failed AS (
        UPDATE messages AS m SET
          status = (CASE WHEN m.attempts >= ${f.maxAttempts}::int THEN 'dead' ELSE 'failed' END)::message_status,
          due_at = now() + o.delay_ms * interval '1 millisecond',
          last_error = o.error, lease_token = NULL, leased_by = NULL
        FROM owned o
        WHERE m.message_id = o.message_id
        RETURNING m.message_id, m.status, m.attempts, o.step, o.error
      ), logged AS (
        INSERT INTO event_history (message_id, kind, step, attempt, dead, error)
        SELECT message_id, 'attempt', left(step, 64), attempts, status = 'dead', error FROM failed
      )
      SELECT message_id, status::text FROM failed`,
);
