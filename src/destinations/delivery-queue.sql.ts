import { sql, type Selectable } from 'kysely';
import { PreparedStatement } from '../database/prepared-statement.js';
import type { DestinationJobs } from '../database/tables.js';
import type { EventRow } from '../messages/event-row.js';
import { QueueStatements } from '../queue/queue-statements.js';
import { FAN_OUT_STEP } from './fan-out.js';

/**
 * destination_jobs as a queue (its other statements: destination-jobs.sql.ts): one delivery per
 * row, keyed by its event and destination. Its statements are compiled once: a call binds its values.
 */
export const DELIVERIES = new QueueStatements({ name: 'destination_jobs', alias: 'j', keys: ['message_id', 'destination'] });

type Job = Selectable<DestinationJobs>;

/** A leased (or, its last attempt spent, dead) delivery with its event. */
export type LeasedDeliveryRow = EventRow &
  Pick<Job, 'destination' | 'attempts' | 'lease_token'> & { status: Extract<Job['status'], 'processing' | 'dead'>; replays: Job['replay'] };

/** LeaseQuota[], one array per field, and the lease's own values. */
export interface LeaseDeliveriesParams {
  names: string[];
  maxAttempts: number[];
  quotas: number[];
  perSecond: (number | null)[];
  burst: (number | null)[];
  ordered: boolean[];
  windowMs: number[];
  limit: number;
  workerId: string;
  leaseSeconds: number;
}

const fanOut = sql.lit(FAN_OUT_STEP);

/**
 * DestinationJobsRepository.lease. A conversation's order waits for events not yet fanned out
 * (no FAN_OUT_STEP record).
 */
export const leaseDeliveries = new PreparedStatement(
  (_, p: LeaseDeliveriesParams) => sql<LeasedDeliveryRow>`
      WITH limits AS (
        SELECT * FROM unnest(${p.names}::text[], ${p.maxAttempts}::int[], ${p.quotas}::int[], ${p.perSecond}::float8[], ${p.burst}::float8[], ${p.ordered}::bool[], ${p.windowMs}::int[])
          AS l(name, max_attempts, quota, per_second, burst, ordered, window_ms)
      ), buckets AS (
        SELECT s.destination, least(l.burst, coalesce(s.tokens, l.burst) + extract(epoch FROM now() - s.refilled_at) * l.per_second) AS tokens
        FROM destination_state s JOIN limits l ON l.name = s.destination
        WHERE l.per_second IS NOT NULL
        ORDER BY s.destination
        FOR UPDATE OF s
      ), picked AS (
        SELECT c.*, row_number() OVER (PARTITION BY c.destination ORDER BY c.due_at) AS turn
        FROM limits l CROSS JOIN LATERAL (
          SELECT j.message_id, j.destination, j.due_at, (j.status = 'processing' AND j.attempts >= l.max_attempts) AS exhausted
          FROM destination_jobs j
          WHERE j.destination = l.name AND j.status IN ('received', 'processing', 'failed') AND j.due_at <= now()
            -- In order: only a conversation's head (its earliest unfinished delivery), held for the reorder
            -- window, and not while another of its deliveries is in flight.
            AND (NOT l.ordered OR j.conversation IS NULL OR (
              j.received_at <= now() - l.window_ms * interval '1 millisecond'
              AND NOT EXISTS (SELECT 1 FROM destination_jobs e
                WHERE e.destination = j.destination AND e.conversation = j.conversation AND e.status IN ('received', 'processing', 'failed')
                  AND (e.ordered_at, e.received_at, e.message_id) < (j.ordered_at, j.received_at, j.message_id)
                  AND e.after_message_id IS DISTINCT FROM j.message_id) -- an earlier reaction to this very message waits for it
              AND NOT EXISTS (SELECT 1 FROM destination_jobs p
                WHERE p.destination = j.destination AND p.conversation = j.conversation AND p.status = 'processing' AND p.message_id <> j.message_id)
              -- nor before the message it refers to (a reaction, a status), wherever that one is,
              AND (j.after_message_id IS NULL OR (
                NOT EXISTS (SELECT 1 FROM destination_jobs r WHERE r.message_id = j.after_message_id AND r.destination = j.destination
                  AND r.status IN ('received', 'processing', 'failed'))
                AND NOT EXISTS (SELECT 1 FROM messages r WHERE r.message_id = j.after_message_id AND r.status IN ('received', 'processing', 'failed')
                  AND NOT EXISTS (SELECT 1 FROM message_steps s WHERE s.message_id = r.message_id AND s.step = ${fanOut}))))
              -- nor before an earlier event of the conversation that is stored but not fanned out yet.
              AND NOT EXISTS (SELECT 1 FROM messages m JOIN messages e ON e.sender = m.sender AND e.tenant IS NOT DISTINCT FROM m.tenant
                WHERE m.message_id = j.message_id AND e.message_id <> j.message_id AND e.status IN ('received', 'processing', 'failed')
                  AND (coalesce(e.provider_timestamp, e.received_at), e.received_at) < (j.ordered_at, j.received_at)
                  AND NOT EXISTS (SELECT 1 FROM message_steps s WHERE s.message_id = e.message_id AND s.step = ${fanOut}))))
          ORDER BY j.due_at
          LIMIT least(l.quota, coalesce((SELECT floor(b.tokens)::int FROM buckets b WHERE b.destination = l.name), l.quota))
          FOR UPDATE OF j SKIP LOCKED
        ) c
      ), due AS (
        SELECT * FROM picked ORDER BY turn, due_at LIMIT ${p.limit}::int
      ), leased AS (
        ${DELIVERIES.leaseUpdate(p.workerId, p.leaseSeconds, {
          from: 'due, messages m',
          where: ' AND m.message_id = j.message_id',
          returning: `j.message_id, j.destination, j.attempts, j.status::text, j.lease_token::text, m.provider::text, m.kind::text, m.type,
          m.sender, m.user_id, m.tenant, m.provider_timestamp, m.from_me, m.authenticated, j.replay AS replays, m.payload, m.received_at`,
        })}
      ), spent AS (
        UPDATE destination_state s SET tokens = b.tokens - coalesce(n.sent, 0), refilled_at = now()
        FROM buckets b LEFT JOIN (SELECT destination, count(*) FILTER (WHERE status = 'processing') AS sent FROM leased GROUP BY destination) n
          ON n.destination = b.destination
        WHERE s.destination = b.destination
      )
      SELECT * FROM leased`,
);

/** DeliveryOutcome[], one array per field. */
export interface OutcomeArrays {
  messageIds: string[];
  destinations: string[];
  tokens: string[];
  results: (string | null)[];
  errors: (string | null)[];
  delays: number[];
  maxAttempts: number[];
}

/**
 * DestinationJobsRepository.finish: each outcome where its lease still holds (processed,
 * failed with its retry time, or dead after the destination's last attempt), failures logged.
 */
export const finishDeliveries = new PreparedStatement(
  (_, o: OutcomeArrays) => sql<Pick<Job, 'message_id' | 'destination'> & { status: Extract<Job['status'], 'processed' | 'failed' | 'dead'> }>`
      WITH o AS (
        SELECT * FROM unnest(${o.messageIds}::text[], ${o.destinations}::text[],
          ${o.tokens}::uuid[], ${o.results}::text[], ${o.errors}::text[],
          ${o.delays}::int[], ${o.maxAttempts}::int[])
          AS o(message_id, destination, token, result, error, delay_ms, max_attempts)
      ), owned AS (
        SELECT o.* FROM o JOIN destination_jobs j ON j.message_id = o.message_id AND j.destination = o.destination AND j.lease_token = o.token
        ORDER BY o.message_id, o.destination
        FOR UPDATE OF j
      ), finished AS (
        UPDATE destination_jobs AS j SET
          status = (CASE WHEN o.error IS NULL THEN 'processed' WHEN j.attempts >= o.max_attempts THEN 'dead' ELSE 'failed' END)::message_status,
          result = CASE WHEN o.error IS NULL THEN o.result::jsonb ELSE j.result END,
          last_error = CASE WHEN o.error IS NULL THEN j.last_error ELSE o.error END,
          completed_at = CASE WHEN o.error IS NULL THEN now() ELSE j.completed_at END,
          due_at = now() + o.delay_ms * interval '1 millisecond',
          lease_token = NULL, leased_by = NULL
        FROM owned o
        WHERE j.message_id = o.message_id AND j.destination = o.destination
        RETURNING j.message_id, j.destination, j.status, j.attempts, o.error
      ), logged AS (
        -- Failures only: a delivery that goes through is in its row (completed_at, attempts).
        INSERT INTO event_history (message_id, kind, destination, attempt, dead, error)
        SELECT message_id, 'delivery', destination, attempts, status = 'dead', error FROM finished WHERE error IS NOT NULL
      )
      SELECT message_id, destination, status::text FROM finished`,
);
