import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { withConflictRetries } from '../queue/database-errors.js';
import { eventOfRow } from '../messages/event-row.js';
import type { AttemptFailure, FailureOutcome, LeasedEvent, StepRecord } from './leased-event.js';
import { failAttempts, INBOX, leaseEvents, recordSteps, type LeasedEventRow } from '../messages/inbox.sql.js';

type Lease = Pick<LeasedEvent, 'key' | 'leaseToken'>;

/**
 * The messages table as a work queue. Every write after the lease matches the lease token,
 * so a worker that lost its lease (it expired and another worker took the event) changes
 * nothing: the new owner's result stands. A token exists only while its lease does (every
 * way out of `processing` clears it), so writes match on it alone: adding `status =
 * 'processing'` lets the planner pick the partial due index, which is slow over a backlog.
 */
@Injectable()
export class WorkQueueRepository {
  constructor(private readonly db: Database) {}

  /**
   * Leases up to `limit` due events: new ones, retries whose time has come, and events whose
   * lease expired (their worker died or hung; that attempt counts). SKIP LOCKED lets any
   * number of workers lease at once without waiting on each other. An expired event that
   * has used every attempt becomes dead instead (returned separately).
   */
  async lease(limit: number, leaseSeconds: number, maxAttempts: number, workerId: string) {
    const validUntil = Date.now() + leaseSeconds * 1000; // taken before the statement: never later than the database's
    const { rows } = await this.db.run(leaseEvents.bind({ maxAttempts, limit, workerId, leaseSeconds }));
    return {
      leased: rows.filter((r) => r.status === 'processing').map((row) => toLeasedEvent(row, validUntil)),
      dead: rows.filter((r) => r.status === 'dead').map((r) => r.message_id),
    };
  }

  /**
   * Writes many workers' step records in one statement: each step row and, for finishing
   * events, the processed status, only where the lease token still matches. Returns the keys
   * whose lease was still held (their records were written).
   */
  async record(records: StepRecord[]): Promise<Set<string>> {
    const arrays = {
      keys: records.map((r) => r.key), tokens: records.map((r) => r.leaseToken), steps: records.map((r) => r.step),
      results: records.map((r) => r.result), attempts: records.map((r) => r.attempt), finish: records.map((r) => r.finish),
    };
    const { rows: owned } = await withConflictRetries(() => this.db.run(recordSteps.bind(arrays)));
    return new Set(owned.map((r) => r.message_id));
  }

  /**
   * Schedules each failed event's retry, or makes it dead when that was its last attempt;
   * many workers' failures in one statement. Returns the outcome per key (lease-lost when the
   * lease was no longer held).
   */
  async fail(failures: AttemptFailure[], maxAttempts: number): Promise<Map<string, FailureOutcome>> {
    const arrays = {
      keys: failures.map((f) => f.key), tokens: failures.map((f) => f.leaseToken), steps: failures.map((f) => f.step),
      errors: failures.map((f) => f.error), delays: failures.map((f) => f.delayMs), maxAttempts,
    };
    const { rows } = await withConflictRetries(() => this.db.run(failAttempts.bind(arrays)));
    const outcomes = new Map<string, FailureOutcome>(failures.map((f) => [f.key, 'lease-lost']));
    for (const row of rows) outcomes.set(row.message_id, row.status);
    return outcomes;
  }

  /**
   * Moves the lease of every event still held LEASE_SECONDS ahead (the heartbeat). Returns the
   * tokens still held; a missing one lost its lease.
   */
  async renew(leases: readonly Lease[], leaseSeconds: number): Promise<Set<string>> {
    const held = { ...heldLeases(leases), leaseSeconds };
    const { rows } = await withConflictRetries(() => this.db.run(INBOX.renew.bind(held)));
    return new Set(rows.map((r) => r.token));
  }

  /**
   * Gives events back unfinished (shutdown): due at once, and the interrupted attempt is not
   * counted. Steps they completed stay recorded. Returns how many were still held.
   */
  async release(leases: readonly Lease[]): Promise<number> {
    if (leases.length === 0) return 0;
    const { numAffectedRows } = await withConflictRetries(() => this.db.run(INBOX.release.bind(heldLeases(leases))));
    return Number(numAffectedRows ?? 0);
  }
}

function heldLeases(leases: readonly Lease[]) {
  return { message_id: leases.map((l) => l.key), tokens: leases.map((l) => l.leaseToken) };
}

function toLeasedEvent(row: LeasedEventRow, validUntil: number): LeasedEvent {
  return {
    key: row.message_id,
    event: eventOfRow(row),
    replay: row.replays,
    leaseToken: row.lease_token!,
    attempt: row.attempts,
    receivedAt: row.received_at,
    completed: row.completed,
    validUntil,
  };
}
