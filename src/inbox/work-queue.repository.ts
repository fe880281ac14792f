import { Injectable } from '@nestjs/common';
import { withConflictRetries } from '../queue/database-errors.js';
import { QueueStatements } from '../queue/queue-statements.js';
import { eventOfRow, type EventRow } from '../messages/event-row.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { AttemptFailure, FailureOutcome, LeasedEvent, StepRecord } from './leased-event.js';

type Lease = Pick<LeasedEvent, 'key' | 'leaseToken'>;

/** The inbox's table as a queue: one event per row. */
const INBOX = new QueueStatements({ name: 'messages', alias: 'm', keys: ['message_id'] });

/** lease(): `$1` MAX_ATTEMPTS, `$2` how many, then the worker's id and LEASE_SECONDS. */
const LEASE = `
      WITH due AS (
        SELECT message_id, (status = 'processing' AND attempts >= $1::int) AS exhausted
        FROM messages
        WHERE status IN ('received', 'processing', 'failed') AND due_at <= now()
        ORDER BY due_at
        LIMIT $2::int
        FOR UPDATE SKIP LOCKED
      )
      ${INBOX.leaseUpdate(3, {
        returning: `m.message_id, m.provider::text, m.kind::text, m.type, m.sender, m.user_id, m.tenant, m.provider_timestamp, m.from_me, m.authenticated, m.replays, m.payload,
        m.received_at, m.attempts, m.status::text, m.lease_token::text,
        (SELECT coalesce(jsonb_object_agg(s.step, s.result), '{}'::jsonb) FROM message_steps s WHERE s.message_id = m.message_id) AS completed`,
      })}`;

interface LeasedRow extends EventRow {
  replays: number;
  attempts: number;
  status: 'processing' | 'dead';
  lease_token: string | null;
  completed: Record<string, unknown>;
}

/**
 * The messages table as a work queue. Every write after the lease matches the lease token,
 * so a worker that lost its lease (it expired and another worker took the event) changes
 * nothing: the new owner's result stands. A token exists only while its lease does (every
 * way out of `processing` clears it), so writes match on it alone: adding `status =
 * 'processing'` lets the planner pick the partial due index, which is slow over a backlog.
 */
@Injectable()
export class WorkQueueRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Leases up to `limit` due events: new ones, retries whose time has come, and events whose
   * lease expired (their worker died or hung; that attempt counts). SKIP LOCKED lets any
   * number of workers lease at once without waiting on each other. An expired event that
   * has used every attempt becomes dead instead (returned separately).
   */
  async lease(limit: number, leaseSeconds: number, maxAttempts: number, workerId: string) {
    const validUntil = Date.now() + leaseSeconds * 1000; // taken before the statement: never later than the database's
    const { rows } = await this.prisma.driverStatement<LeasedRow>(LEASE, [maxAttempts, limit, workerId, leaseSeconds]);
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
    const owned = await withConflictRetries(() => this.prisma.driverQuery<{ message_id: string }>`
      WITH input AS (
        SELECT * FROM unnest(${records.map((r) => r.key)}::text[], ${records.map((r) => r.leaseToken)}::uuid[],
          ${records.map((r) => r.step)}::text[], ${records.map((r) => r.result)}::text[],
          ${records.map((r) => r.attempt)}::int[], ${records.map((r) => r.finish)}::bool[])
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
      SELECT message_id FROM owned`);
    return new Set(owned.map((r) => r.message_id));
  }

  /**
   * Schedules each failed event's retry, or makes it dead when that was its last attempt;
   * many workers' failures in one statement. Returns the outcome per key (lease-lost when the
   * lease was no longer held).
   */
  async fail(failures: AttemptFailure[], maxAttempts: number): Promise<Map<string, FailureOutcome>> {
    // Rows are locked in key order, as claims lock them: a redelivery's claim and this cannot deadlock.
    const rows = await withConflictRetries(() => this.prisma.driverQuery<{ message_id: string; status: 'failed' | 'dead' }>`
      WITH f AS (
        SELECT * FROM unnest(${failures.map((f) => f.key)}::text[], ${failures.map((f) => f.leaseToken)}::uuid[], ${failures.map((f) => f.step)}::text[],
          ${failures.map((f) => f.error)}::text[], ${failures.map((f) => f.delayMs)}::int[]) AS f(message_id, token, step, error, delay_ms)
      ), owned AS (
        SELECT f.* FROM f JOIN messages m ON m.message_id = f.message_id AND m.lease_token = f.token
        ORDER BY f.message_id
        FOR UPDATE OF m
      ), failed AS (
        UPDATE messages AS m SET
          status = (CASE WHEN m.attempts >= ${maxAttempts}::int THEN 'dead' ELSE 'failed' END)::message_status,
          due_at = now() + o.delay_ms * interval '1 millisecond',
          last_error = o.error, lease_token = NULL, leased_by = NULL
        FROM owned o
        WHERE m.message_id = o.message_id
        RETURNING m.message_id, m.status, m.attempts, o.step, o.error
      ), logged AS (
        INSERT INTO event_history (message_id, kind, step, attempt, dead, error)
        SELECT message_id, 'attempt', left(step, 64), attempts, status = 'dead', error FROM failed
      )
      SELECT message_id, status::text FROM failed`);
    const outcomes = new Map<string, FailureOutcome>(failures.map((f) => [f.key, 'lease-lost']));
    for (const row of rows) outcomes.set(row.message_id, row.status);
    return outcomes;
  }

  /**
   * Moves the lease of every event still held LEASE_SECONDS ahead (the heartbeat). Returns the
   * tokens still held; a missing one lost its lease.
   */
  async renew(leases: readonly Lease[], leaseSeconds: number): Promise<Set<string>> {
    const values = [leases.map((l) => l.key), leases.map((l) => l.leaseToken), leaseSeconds];
    const { rows } = await withConflictRetries(() => this.prisma.driverStatement<{ token: string }>(INBOX.renew, values));
    return new Set(rows.map((r) => r.token));
  }

  /**
   * Gives events back unfinished (shutdown): due at once, and the interrupted attempt is not
   * counted. Steps they completed stay recorded. Returns how many were still held.
   */
  async release(leases: readonly Lease[]): Promise<number> {
    if (leases.length === 0) return 0;
    const values = [leases.map((l) => l.key), leases.map((l) => l.leaseToken)];
    return (await withConflictRetries(() => this.prisma.driverStatement(INBOX.release, values))).rowCount ?? 0;
  }
}

function toLeasedEvent(row: LeasedRow, validUntil: number): LeasedEvent {
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
