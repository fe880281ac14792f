import { type EventKind } from '../sources/shared/normalized-event.js';
import { SOURCE_NAMES, type SourceName } from '../sources/source-registry.js';

/**
 * Every label value the metrics can take, so cardinality stays bounded: sources, kinds,
 * outcomes and statuses only; never ids, keys or phone numbers. (Step names come from the
 * registered @WorkerStep providers, a set fixed at boot.)
 */
export const SOURCE_OR_UNKNOWN_LABELS = [...SOURCE_NAMES, 'unknown'] as const satisfies readonly (SourceName | 'unknown')[];
export const SOURCE_LABELS = SOURCE_OR_UNKNOWN_LABELS.filter((p): p is SourceName => p !== 'unknown');
export type SourceLabel = (typeof SOURCE_OR_UNKNOWN_LABELS)[number];

export const EVENT_KINDS = ['message', 'status', 'other'] as const satisfies readonly EventKind[];

/** What a POST /webhook ended as, from the HTTP status the source saw. */
export const WEBHOOK_REQUEST_OUTCOMES = ['ok', 'invalid', 'signature_rejected', 'source_disabled', 'unavailable', 'error', 'aborted'] as const;
export type WebhookRequestOutcome = (typeof WEBHOOK_REQUEST_OUTCOMES)[number];

/** What became of one event of a webhook request. */
export const EVENT_RESULTS = ['accepted', 'duplicate', 'stale'] as const;
export type EventResultLabel = (typeof EVENT_RESULTS)[number];

/** Why a signature was refused. */
export const SIGNATURE_FAILURES = ['missing', 'malformed', 'expired', 'mismatch'] as const;

/** How one attempt at an event ended in this process. */
export const PROCESSING_OUTCOMES = ['processed', 'failed', 'dead', 'lease_lost', 'released', 'error'] as const;
export type ProcessingOutcome = (typeof PROCESSING_OUTCOMES)[number];

/** The unfinished statuses of the inbox, and dead (finished, but needs a human). */
export const INBOX_STATUSES = ['received', 'processing', 'failed', 'dead'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
