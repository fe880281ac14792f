import { QueueStatements } from '../queue/queue-statements.js';
import { FAN_OUT_STEP } from './fan-out.js';

/** destination_jobs as a queue (its other statements: destination-jobs.sql.ts): one delivery per row, keyed by its event and destination. */
export const DELIVERIES = new QueueStatements({ name: 'destination_jobs', alias: 'j', keys: ['message_id', 'destination'] });

/**
 * lease(): `$1…$7` the destinations' LeaseQuota columns, `$8` how many, then the worker's id and
 * LEASE_SECONDS. A conversation's order waits for events not yet fanned out (no FAN_OUT_STEP record).
 */
export const LEASE_DELIVERIES = `
      WITH limits AS (
        SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::float8[], $5::float8[], $6::bool[], $7::int[])
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
                  AND NOT EXISTS (SELECT 1 FROM message_steps s WHERE s.message_id = r.message_id AND s.step = '${FAN_OUT_STEP}'))))
              -- nor before an earlier event of the conversation that is stored but not fanned out yet.
              AND NOT EXISTS (SELECT 1 FROM messages m JOIN messages e ON e.sender = m.sender AND e.tenant IS NOT DISTINCT FROM m.tenant
                WHERE m.message_id = j.message_id AND e.message_id <> j.message_id AND e.status IN ('received', 'processing', 'failed')
                  AND (coalesce(e.provider_timestamp, e.received_at), e.received_at) < (j.ordered_at, j.received_at)
                  AND NOT EXISTS (SELECT 1 FROM message_steps s WHERE s.message_id = e.message_id AND s.step = '${FAN_OUT_STEP}'))))
          ORDER BY j.due_at
          LIMIT least(l.quota, coalesce((SELECT floor(b.tokens)::int FROM buckets b WHERE b.destination = l.name), l.quota))
          FOR UPDATE OF j SKIP LOCKED
        ) c
      ), due AS (
        SELECT * FROM picked ORDER BY turn, due_at LIMIT $8::int
      ), leased AS (
        ${DELIVERIES.leaseUpdate(9, {
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
      SELECT * FROM leased`;
