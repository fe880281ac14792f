import type { NormalizedEvent } from '../events/normalized-event.js';

/** An event this worker holds a lease on, with what its earlier attempts completed. */
export interface LeasedEvent {
  event: NormalizedEvent;
  /** Fences every write of this attempt: once another worker re-leases the event, it no longer matches. */
  leaseToken: string;
  /** 1 on the first attempt; a lease that expired counted as one. */
  attempt: number;
  /** 0, or n for the n-th operator replay from the start (a deliberate second effect). */
  replay: number;
  receivedAt: Date;
  /** Results of the steps already recorded, by step name. */
  completed: Record<string, unknown>;
  /**
   * Until when (this process's clock, ms) the lease is surely held: set when leased, moved on by
   * every renewal. Writes are retried through a database blip only until then.
   */
  validUntil: number;
}

/** One write of the worker: a step's recovery point, the end of the event, or both. */
export interface StepRecord {
  key: string;
  leaseToken: string;
  attempt: number;
  /** Null when the event finishes without a step of its own (none applied, or all were done). */
  step: string | null;
  /** The step's result as JSON text. */
  result: string | null;
  /** Marks the event processed in the same statement. */
  finish: boolean;
}

export interface AttemptFailure {
  key: string;
  leaseToken: string;
  error: string;
  /** When the retry is due, from now. */
  delayMs: number;
}

export type FailureOutcome = 'failed' | 'dead' | 'lease-lost';
