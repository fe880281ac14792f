import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import type { LeasedJob } from '../queue/job-queue.js';

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

/** How much of one destination a lease may take. */
export interface LeaseQuota {
  name: string;
  maxAttempts: number;
  /** At most this many of its deliveries (1 for an open circuit's probe). */
  quota: number;
  rateLimit: { perSecond: number; burst: number } | null;
  /** ordering: conversation: only a conversation's head, and none while one is in flight, after this hold (ms). */
  ordered: boolean;
  reorderWindowMs: number;
}

/** One delivery the fan-out creates; `conversation` only for a destination that keeps conversations in order. */
export interface NewDelivery {
  destination: string;
  conversation: string | null;
  /** The event key of the message this one refers to (a reaction's, a status's): sent first, when in order. */
  after: string | null;
}
