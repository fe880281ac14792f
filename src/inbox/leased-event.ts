import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import type { LeasedJob } from '../queue/job-queue.js';

/** An event this worker holds a lease on (its `key` is the event's), with what its earlier attempts completed. */
export interface LeasedEvent extends LeasedJob {
  event: NormalizedEvent;
  /** 0, or n for the n-th operator replay from the start (a deliberate second effect). */
  replay: number;
  /** Results of the steps already recorded, by step name. */
  completed: Record<string, unknown>;
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
  /** The step that failed, for the event's history ('(finish)' when recording the end failed). */
  step: string;
  error: string;
  /** When the retry is due, from now. */
  delayMs: number;
}

export type FailureOutcome = 'failed' | 'dead' | 'lease-lost';
