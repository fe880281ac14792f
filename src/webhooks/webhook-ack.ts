import type { EventClaim } from '../dedup/claim-result.js';

/**
 * What became of one event: claimed (accepted or duplicate), or ignored as stale: the source's
 * time is older than the retention window, so it may be a replay of a webhook request whose key
 * has been purged.
 */
export type EventResult = EventClaim['result'] | 'stale';

/** The answer to every stored webhook request: always HTTP 200, new, already-seen and stale events alike. */
export interface WebhookAck {
  accepted: number;
  duplicates: number;
  stale: number;
  events: Array<{ id: string; result: EventResult }>;
}
