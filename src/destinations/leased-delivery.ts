import type { NormalizedEvent } from '../events/normalized-event.js';
import type { LeasedJob } from '../worker/job-queue.js';

/** One event's delivery to one destination, leased by this worker (`key`: `<destination>/<event key>`, for logs). */
export interface LeasedDelivery extends LeasedJob {
  destination: string;
  event: NormalizedEvent;
  /** The event's operator replays from the start: a replayed delivery goes out under a new key. */
  replay: number;
}

/** The end of one attempt at a delivery, as written. */
export interface DeliveryOutcome {
  messageId: string;
  destination: string;
  leaseToken: string;
  /** Set for a success (the destination's answer); null for a failure. */
  result: string | null;
  /** Set for a failure. */
  error: string | null;
  delayMs: number;
  maxAttempts: number;
  /** What the attempt says of the destination's health (not stored with the delivery). */
  verdict: 'success' | 'failure' | 'neutral';
  pauseMs: number;
}

export type DeliveryOutcomeStatus = 'processed' | 'failed' | 'dead' | 'lease-lost';
