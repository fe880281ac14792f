import type { EventClaim } from '../dedup/claim-result.js';

/** What the controller hands over from one POST /webhook request. */
export interface WebhookDelivery {
  /** Parsed JSON, or undefined when the body was not JSON. */
  body: unknown;
  /** The exact request bytes (signatures are computed over these). */
  rawBody: Buffer | undefined;
  metaSignature: string | undefined;
  wasenderSignature: string | undefined;
}

/** The answer to every stored delivery: always HTTP 200, new and already-seen events alike. */
export interface WebhookAck {
  accepted: number;
  duplicates: number;
  events: EventClaim[];
}
