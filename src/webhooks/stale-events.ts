import type { NormalizedEvent } from '../sources/shared/normalized-event.js';

const DAY_MS = 86_400_000;

/**
 * The stale-replay guard. A signature proves origin, not freshness, and the claim remembers
 * keys only for RETENTION_DAYS: an event whose source's time is older than that may have been
 * purged already, so a captured body replayed now would be accepted again. Such events are
 * acknowledged but neither stored nor processed. No real webhook request is lost: Meta stops retrying
 * after 7 days and RETENTION_DAYS is at least 8. Events without a source's time are never stale.
 */
export function isStale(event: NormalizedEvent, retentionDays: number, nowMs = Date.now()): boolean {
  return event.providerTimestamp !== null && event.providerTimestamp.getTime() < nowMs - retentionDays * DAY_MS;
}
