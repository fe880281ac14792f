import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { withConflictRetries } from '../queue/database-errors.js';
import { eventOfRow } from '../messages/event-row.js';
import { finishDeliveries, leaseDeliveries, type LeasedDeliveryRow } from './delivery-queue.sql.js';
import { createDeliveries } from './destination-jobs.sql.js';
import type { DeliveryOutcome, DeliveryOutcomeStatus, LeasedDelivery, LeaseQuota, NewDelivery } from './leased-delivery.js';

/**
 * destination_jobs as a work queue, fenced like the inbox (WorkQueueRepository): every write
 * after the lease matches the lease token, so a worker that lost its lease changes nothing.
 * Rows are locked in (message_id, destination) order everywhere, so statements cannot deadlock.
 */
@Injectable()
export class DestinationJobsRepository {
  constructor(private readonly db: Database) {}

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
    const params = {
      names: destinations.map((d) => d.name), maxAttempts: destinations.map((d) => d.maxAttempts), quotas: destinations.map((d) => d.quota),
      perSecond: destinations.map((d) => d.rateLimit?.perSecond ?? null), burst: destinations.map((d) => d.rateLimit?.burst ?? null),
      ordered: destinations.map((d) => d.ordered), windowMs: destinations.map((d) => d.reorderWindowMs), limit, workerId, leaseSeconds,
    };
    const { rows } = await this.db.run(leaseDeliveries.bind(params));
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
    const arrays = {
      messageIds: outcomes.map((o) => o.messageId), destinations: outcomes.map((o) => o.destination), tokens: outcomes.map((o) => o.leaseToken),
      results: outcomes.map((o) => o.result), errors: outcomes.map((o) => o.error), delays: outcomes.map((o) => o.delayMs),
      maxAttempts: outcomes.map((o) => o.maxAttempts),
    };
    const { rows } = await withConflictRetries(() => this.db.run(finishDeliveries.bind(arrays)));
    const statuses = new Map<string, DeliveryOutcomeStatus>(outcomes.map((o) => [`${o.destination}/${o.messageId}`, 'lease-lost']));
    for (const row of rows) statuses.set(`${row.destination}/${row.message_id}`, row.status);
    return statuses;
  }
}

function toLeasedDelivery(row: LeasedDeliveryRow, validUntil: number): LeasedDelivery {
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
