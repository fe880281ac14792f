import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { withConflictRetries } from '../messages/database-errors.js';
import { eventOfRow, type EventRow } from '../messages/event-row.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { createDeliveries } from './destination-jobs.sql.js';
import type { DeliveryOutcome, DeliveryOutcomeStatus, LeasedDelivery, LeaseQuota, NewDelivery } from './leased-delivery.js';

interface LeasedRow extends EventRow {
  destination: string;
  attempts: number;
  status: 'processing' | 'dead';
  lease_token: string | null;
  replays: number;
}

/**
 * destination_jobs as a work queue, fenced like the inbox (WorkQueueRepository): every write
 * after the lease matches the lease token, so a worker that lost its lease changes nothing.
 * Rows are locked in (message_id, destination) order everywhere, so statements cannot deadlock.
 */
@Injectable()
export class DestinationJobsRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly db: Database,
  ) {}

  /**
   * The deliveries of one event for its `replay` (0, or the n-th replay from the start). A
   * delivery it already has for that replay is left as it is (a fan-out retried after a crash);
   * one made for an earlier replay starts again, to go out under the new key.
   */
  async create(messageId: string, deliveries: readonly NewDelivery[], replay: number, order: { at: Date; receivedAt: Date }): Promise<void> {
    if (deliveries.length === 0) return;
    const sorted = [...deliveries].sort((a, b) => (a.destination < b.destination ? -1 : 1));
    await createDeliveries(messageId, sorted, replay, order).execute(this.db);
  }

  /**
   * Leases up to `limit` due deliveries to the given destinations, with their events: new ones,
   * retries whose time has come, and expired leases (that attempt counts; one that was the
   * destination's last makes the delivery dead instead, returned separately). Destinations
   * take turns (each one's earliest due first, then the next destination's), so one
   * destination's backlog never makes another wait; each takes at most its `quota`, and a
   * rate-limited one at most the whole tokens its bucket holds (spent in the same statement).
   */
  async lease(limit: number, leaseSeconds: number, workerId: string, destinations: readonly LeaseQuota[]) {
    const validUntil = Date.now() + leaseSeconds * 1000;
    const rows = await this.prisma.driverQuery<LeasedRow>`
      WITH limits AS (
        SELECT * FROM unnest(${destinations.map((d) => d.name)}::text[], ${destinations.map((d) => d.maxAttempts)}::int[],
          ${destinations.map((d) => d.quota)}::int[], ${destinations.map((d) => d.rateLimit?.perSecond ?? null)}::float8[],
          ${destinations.map((d) => d.rateLimit?.burst ?? null)}::float8[], ${destinations.map((d) => d.ordered)}::bool[],
          ${destinations.map((d) => d.reorderWindowMs)}::int[]) AS l(name, max_attempts, quota, per_second, burst, ordered, window_ms)
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
                  AND NOT EXISTS (SELECT 1 FROM message_steps s WHERE s.message_id = r.message_id AND s.step = 'destinations'))))
              -- nor before an earlier event of the conversation that is stored but not fanned out yet.
              AND NOT EXISTS (SELECT 1 FROM messages m JOIN messages e ON e.sender = m.sender AND e.tenant IS NOT DISTINCT FROM m.tenant
                WHERE m.message_id = j.message_id AND e.message_id <> j.message_id AND e.status IN ('received', 'processing', 'failed')
                  AND (coalesce(e.provider_timestamp, e.received_at), e.received_at) < (j.ordered_at, j.received_at)
                  AND NOT EXISTS (SELECT 1 FROM message_steps s WHERE s.message_id = e.message_id AND s.step = 'destinations'))))
          ORDER BY j.due_at
          LIMIT least(l.quota, coalesce((SELECT floor(b.tokens)::int FROM buckets b WHERE b.destination = l.name), l.quota))
          FOR UPDATE OF j SKIP LOCKED
        ) c
      ), due AS (
        SELECT * FROM picked ORDER BY turn, due_at LIMIT ${limit}::int
      ), leased AS (
        UPDATE destination_jobs AS j SET
          status = (CASE WHEN due.exhausted THEN 'dead' ELSE 'processing' END)::message_status,
          attempts = CASE WHEN due.exhausted THEN j.attempts ELSE j.attempts + 1 END,
          last_error = CASE WHEN j.status = 'processing'
            THEN 'lease expired: ' || coalesce(j.leased_by, 'a worker') || ' did not finish attempt ' || j.attempts
            ELSE j.last_error END,
          lease_token = CASE WHEN due.exhausted THEN NULL ELSE gen_random_uuid() END,
          leased_by = CASE WHEN due.exhausted THEN NULL ELSE ${workerId}::text END,
          due_at = now() + ${leaseSeconds}::int * interval '1 second'
        FROM due, messages m
        WHERE j.message_id = due.message_id AND j.destination = due.destination AND m.message_id = j.message_id
        RETURNING j.message_id, j.destination, j.attempts, j.status::text, j.lease_token::text, m.provider::text, m.kind::text, m.type,
          m.sender, m.user_id, m.tenant, m.provider_timestamp, m.from_me, m.authenticated, j.replay AS replays, m.payload, m.received_at
      ), spent AS (
        UPDATE destination_state s SET tokens = b.tokens - coalesce(n.sent, 0), refilled_at = now()
        FROM buckets b LEFT JOIN (SELECT destination, count(*) FILTER (WHERE status = 'processing') AS sent FROM leased GROUP BY destination) n
          ON n.destination = b.destination
        WHERE s.destination = b.destination
      )
      SELECT * FROM leased`;
    return {
      leased: rows.filter((r) => r.status === 'processing').map((row) => toLeasedDelivery(row, validUntil)),
      dead: rows.filter((r) => r.status === 'dead').map((r) => `${r.destination}/${r.message_id}`),
    };
  }

  /**
   * Writes the outcomes of many attempts in one statement, each only where its lease still
   * holds: processed with the answer, or failed with its retry time, or dead when it was the
   * destination's last attempt. Returns the status written per `<destination>/<message id>`.
   */
  async finish(outcomes: DeliveryOutcome[]): Promise<Map<string, DeliveryOutcomeStatus>> {
    const rows = await withConflictRetries(() => this.prisma.driverQuery<{ message_id: string; destination: string; status: 'processed' | 'failed' | 'dead' }>`
      WITH o AS (
        SELECT * FROM unnest(${outcomes.map((o) => o.messageId)}::text[], ${outcomes.map((o) => o.destination)}::text[],
          ${outcomes.map((o) => o.leaseToken)}::uuid[], ${outcomes.map((o) => o.result)}::text[], ${outcomes.map((o) => o.error)}::text[],
          ${outcomes.map((o) => o.delayMs)}::int[], ${outcomes.map((o) => o.maxAttempts)}::int[])
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
      SELECT message_id, destination, status::text FROM finished`);
    const statuses = new Map<string, DeliveryOutcomeStatus>(outcomes.map((o) => [`${o.destination}/${o.messageId}`, 'lease-lost']));
    for (const row of rows) statuses.set(`${row.destination}/${row.message_id}`, row.status);
    return statuses;
  }
}

function toLeasedDelivery(row: LeasedRow, validUntil: number): LeasedDelivery {
  return {
    key: `${row.destination}/${row.message_id}`,
    destination: row.destination,
    event: eventOfRow(row),
    replay: row.replays,
    leaseToken: row.lease_token!,
    attempt: row.attempts,
    receivedAt: row.received_at,
    validUntil,
  };
}
