import type { NormalizedEvent } from '../events/normalized-event.js';
import type { ClaimRow } from '../messages/claim-row.js';

/**
 * One row per distinct key (first occurrence wins, later copies counted), sorted by key so
 * concurrent batches take row locks in the same order.
 */
export function toClaimRows(events: NormalizedEvent[]): ClaimRow[] {
  const rows = new Map<string, ClaimRow>();
  for (const event of events) {
    const existing = rows.get(event.key);
    if (existing) {
      existing.copies++;
      continue;
    }
    rows.set(event.key, {
      key: event.key,
      provider: event.provider,
      kind: event.kind,
      type: event.type,
      sender: event.sender,
      providerTimestamp: event.providerTimestamp,
      payload: toStorableJson(event.raw),
      copies: 1,
    });
  }
  return [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * JSON text that jsonb accepts: PostgreSQL rejects the \u0000 escape, so a NUL inside a string
 * becomes U+FFFD instead of failing the claim (an escaped backslash before "u0000" is left alone).
 */
export function toStorableJson(value: unknown): string {
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd');
}
