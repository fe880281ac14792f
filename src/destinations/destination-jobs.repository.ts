import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { withConflictRetries } from '../queue/database-errors.js';
import { eventOfRow, type EventRow } from '../messages/event-row.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { createDeliveries } from './destination-jobs.sql.js';
import { LEASE_DELIVERIES } from './delivery-queue.sql.js';
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
    const values = [
      destinations.map((d) => d.name), destinations.map((d) => d.maxAttempts), destinations.map((d) => d.quota),
      destinations.map((d) => d.rateLimit?.perSecond ?? null), destinations.map((d) => d.rateLimit?.burst ?? null),
      destinations.map((d) => d.ordered), destinations.map((d) => d.reorderWindowMs), limit, workerId, leaseSeconds,
    ];
    const { rows } = await this.prisma.driverStatement<LeasedRow>(LEASE_DELIVERIES, values);
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
