import type { NormalizedEvent } from './normalized-event.js';

/** In the order of the delivery_status enum: a record only ever moves to a later one, failed is terminal. */
export type ReceiptStatus = 'sent' | 'delivered' | 'read' | 'played' | 'failed';

/** Enough for a code, a title and a sentence of details; source texts are otherwise unbounded. */
export const MAX_ERROR_LENGTH = 500;

/** What a source's status event says: which outbound message, which status on the ladder, why it failed. */
export interface StatusFacts {
  /** The source's id of the outbound message (a wamid, a Twilio MessageSid, a WAHA or Evolution message id). */
  messageId: string | null;
  /** The status on the ladder, or null when the source's status says nothing about progress. */
  status: ReceiptStatus | null;
  error: string | null;
}

/**
 * Reads a status event as its parser stored it; one per source (status-readers.ts). The
 * worker rebuilds events from stored rows, so a reader works on the event, not on the body.
 */
export type StatusReader = (event: NormalizedEvent) => StatusFacts;

const STATUSES: ReadonlySet<string> = new Set<ReceiptStatus>(['sent', 'delivered', 'read', 'played', 'failed']);

/** A status already named as on the ladder (Meta's, lowercased), or null. */
export function ladderStatus(status: string | null): ReceiptStatus | null {
  return status !== null && STATUSES.has(status) ? (status as ReceiptStatus) : null;
}

/** Provider error texts are unbounded: at most MAX_ERROR_LENGTH code points, null when empty. */
export function boundedError(text: string | null): string | null {
  if (text === null || text === '') return null;
  if (text.length <= MAX_ERROR_LENGTH) return text;
  const points = Array.from(text);
  return points.length <= MAX_ERROR_LENGTH ? text : `${points.slice(0, MAX_ERROR_LENGTH - 1).join('')}…`;
}
