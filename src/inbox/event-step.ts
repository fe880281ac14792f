import { DiscoveryService } from '@nestjs/core';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';

/** A step throws it to ask for its retry no sooner than it says (defined with the queue's retry policy). */
export { RetryLaterError } from '../queue/retry-policy.js';

/**
 * The extension point. A step is a NestJS provider that implements EventStep and carries
 * @WorkerStep({ name }); the worker finds every such provider in the application and runs
 * the ones that apply to an event in `order`, recording each completed step. A retry resumes
 * at the first step not yet recorded, so a completed step never runs again.
 */
export interface EventStep {
  /** Whether this step has work for the event. A step that does not apply is not recorded. */
  appliesTo(event: NormalizedEvent): boolean;
  /**
   * Does the work. The value returned (JSON-serialisable, or undefined) is stored as the
   * step's result and offered to later steps. Throwing fails the attempt: it is retried with
   * backoff, from this step. Throw RetryLaterError to ask for a particular delay.
   */
  run(event: NormalizedEvent, context: StepContext): Promise<unknown>;
}

export interface StepContext {
  /**
   * `<event key>:<step name>`, the same on every attempt. A step that crashes between its
   * external effect and its record runs again: pass this key to the outside world (an
   * Idempotency-Key header, a client reference) so the second run cannot act twice.
   * After the n-th replay from the start (a deliberate second effect) it is
   * `<event key>:replay-<n>:<step name>`, so the outside world does not swallow it.
   */
  readonly idempotencyKey: string;
  /** 0, or n while running the n-th operator replay from the start. */
  readonly replay: number;
  /** 1 on the first attempt at this event. */
  readonly attempt: number;
  /** When the event was acknowledged to the source. */
  readonly receivedAt: Date;
  /** Results of the event's steps completed so far, by step name. */
  readonly results: Readonly<Record<string, unknown>>;
  /** Aborted when the attempt's lease is about to expire or the process shuts down. Pass it on (fetch, clients) and stop when it fires. */
  readonly signal: AbortSignal;
}

export interface WorkerStepOptions {
  /** Recorded per event; letters, digits, `.`, `_` and `-`, at most 64 characters, unique. */
  name: string;
  /** Steps run in ascending order (built-ins: delivery-status 10, forward 20); default 100. */
  order?: number;
}

/** Marks a provider as a processing step. */
export const WorkerStep = DiscoveryService.createDecorator<WorkerStepOptions>();
