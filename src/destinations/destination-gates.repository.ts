import { Injectable } from '@nestjs/common';
import { sql, type InferResult, type Kysely } from 'kysely';
import { withConflictRetries } from '../queue/database-errors.js';
import { Database } from '../database/database.js';
import type { DB } from '../database/tables.js';

/** What a batch of outcomes says about one destination's health. */
export interface HealthReport {
  destination: string;
  successes: number;
  /** Failures that count toward the circuit: 5xx, timeouts, connection errors. */
  failures: number;
  /** The longest Retry-After asked for (429, 503), ms; 0 when none. */
  pauseMs: number;
  lastError: string | null;
  /** The destination's breaker settings. */
  threshold: number;
  probeIntervalMs: number;
}

/** destination_state's statements (DestinationGatesRepository says when each runs). */
export const destinationStateSql = {
  ensure: (db: Kysely<DB>, destinations: readonly string[]) =>
    db.insertInto('destination_state').columns(['destination'])
      .expression(sql`SELECT unnest(${[...destinations].sort()}::text[])`)
      .onConflict((oc) => oc.column('destination').doNothing()),

  gates: (db: Kysely<DB>) =>
    db.selectFrom('destination_state').orderBy('destination').select([
      'destination', sql<'closed' | 'open'>`circuit`.as('circuit'), 'failures',
      /** Nothing may be sent now: a Retry-After, or an open circuit's next probe, is still ahead. */
      sql<boolean>`coalesce(paused_until > now(), false)`.as('paused'),
      'paused_until as pausedUntil', 'opened_at as openedAt', 'last_error as lastError', 'last_error_at as lastErrorAt',
    ]),

  claimProbe: (db: Kysely<DB>, destination: string, probeIntervalMs: number) =>
    db.updateTable('destination_state')
      .set({ paused_until: sql`now() + ${probeIntervalMs}::int * interval '1 millisecond'`, updated_at: sql`now()` })
      .where('destination', '=', destination).where('circuit', '=', 'open').where(sql<boolean>`coalesce(paused_until, '-infinity') <= now()`)
      .returning('destination'),

  record: (reports: readonly HealthReport[]) => sql`
    WITH r AS (
      SELECT * FROM unnest(${reports.map((r) => r.destination)}::text[], ${reports.map((r) => r.successes)}::int[], ${reports.map((r) => r.failures)}::int[],
        ${reports.map((r) => r.pauseMs)}::int[], ${reports.map((r) => r.lastError)}::text[], ${reports.map((r) => r.threshold)}::int[],
        ${reports.map((r) => r.probeIntervalMs)}::int[]) AS r(destination, successes, failures, pause_ms, last_error, threshold, probe_ms)
    ), next AS (
      SELECT r.*, CASE WHEN r.successes > 0 THEN 0 ELSE s.failures + r.failures END AS count,
        s.circuit AS was
      FROM destination_state s JOIN r ON r.destination = s.destination
      ORDER BY s.destination
      FOR UPDATE OF s
    )
    UPDATE destination_state s SET
      failures = n.count,
      circuit = CASE WHEN n.successes > 0 THEN 'closed' WHEN n.count >= n.threshold THEN 'open' ELSE s.circuit END,
      opened_at = CASE WHEN n.successes > 0 THEN NULL WHEN n.count >= n.threshold AND n.was = 'closed' THEN now() ELSE s.opened_at END,
      paused_until = CASE
        WHEN n.successes = 0 AND n.count >= n.threshold AND n.was = 'closed' THEN now() + greatest(n.probe_ms, n.pause_ms) * interval '1 millisecond'
        WHEN n.pause_ms > 0 THEN greatest(s.paused_until, now() + n.pause_ms * interval '1 millisecond')
        WHEN n.successes > 0 AND s.circuit = 'open' THEN NULL
        ELSE s.paused_until END,
      last_error = coalesce(n.last_error, s.last_error),
      last_error_at = CASE WHEN n.last_error IS NULL THEN s.last_error_at ELSE now() END,
      updated_at = now()
    FROM next n WHERE s.destination = n.destination`,
};

/** A destination's gate as of the database's clock. */
export type DestinationGate = InferResult<ReturnType<typeof destinationStateSql.gates>>[number];

/**
 * destination_state: each destination's token bucket and circuit breaker, one row shared by
 * every worker of every process. It is written when something changes (a failure, a
 * recovery, a probe, a lease of a rate-limited destination), never on every healthy delivery.
 */
@Injectable()
export class DestinationGatesRepository {
  constructor(private readonly db: Database) {}

  async ensure(destinations: readonly string[]): Promise<void> {
    await destinationStateSql.ensure(this.db, destinations).execute();
  }

  gates(): Promise<DestinationGate[]> {
    return destinationStateSql.gates(this.db).execute();
  }

  /** Takes the probe of an open circuit whose interval has passed; true for exactly one caller per interval. */
  async claimProbe(destination: string, probeIntervalMs: number): Promise<boolean> {
    return (await destinationStateSql.claimProbe(this.db, destination, probeIntervalMs).execute()).length > 0;
  }

  /**
   * Folds a batch of outcomes into the breakers. A success closes the circuit and clears the
   * count (consecutive failures, approximated per batch: a batch with a success counts none);
   * failures add up, and reaching the threshold opens the circuit until the first probe. A
   * Retry-After pauses the destination until then, whatever the circuit says.
   */
  async record(reports: HealthReport[]): Promise<void> {
    await withConflictRetries(() => destinationStateSql.record(reports).execute(this.db));
  }
}
