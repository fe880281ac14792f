import type { EventClaim } from '../dedup/claim-result.js';

/** What the ingress hands over from one POST to a webhook URL. */
export interface WebhookDelivery {
  /** The body as its source's format decoded it (any JSON value: the service decides what it takes). */
  body: unknown;
  /** The exact request bytes (signatures are computed over these). */
  rawBody: Buffer;
  /** A request header by lower-case name. */
  header(name: string): string | undefined;
  /** The path and query string as received (Twilio signs the full URL it called). */
  url: string;
  /** The URL segment after /webhook/<source>/ ('' when none), e.g. Evolution API's event name. */
  urlSuffix: string;
}

/**
 * What became of one event: claimed (accepted or duplicate), or ignored as stale: its provider
 * time is older than the retention window, so it may be a replay of a delivery whose key has
 * been purged.
 */
export type EventResult = EventClaim['result'] | 'stale';

/** The answer to every stored delivery: always HTTP 200, new, already-seen and stale events alike. */
export interface WebhookAck {
  accepted: number;
  duplicates: number;
  stale: number;
  events: Array<{ id: string; result: EventResult }>;
}
