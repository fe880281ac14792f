import type { NormalizedEvent } from '../events/normalized-event.js';
import { withinNestingLimit } from '../events/payload-values.js';
import type { ClaimRow } from '../messages/claim-row.js';

/**
 * The row an event is claimed with. Serializing here, per request and before batching, keeps
 * a body that cannot be stored from failing the deliveries it would have been batched with.
 */
export function toClaimRow(event: NormalizedEvent): ClaimRow {
  return {
    key: event.key,
    provider: event.provider,
    kind: event.kind,
    type: event.type,
    sender: event.sender,
    providerTimestamp: event.providerTimestamp,
    payload: toStorableJson(event.raw),
    copies: 1,
  };
}

/**
 * One row per distinct key (first occurrence wins, later copies counted), sorted by key so
 * concurrent batches take row locks in the same order.
 */
export function mergeClaimRows(rows: ClaimRow[]): ClaimRow[] {
  const byKey = new Map<string, ClaimRow>();
  for (const row of rows) {
    const existing = byKey.get(row.key);
    if (existing) existing.copies += row.copies;
    else byKey.set(row.key, { ...row });
  }
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * JSON text that jsonb accepts: PostgreSQL rejects the \u0000 escape, so a NUL inside a string
 * becomes U+FFFD instead of failing the claim (an escaped backslash before "u0000" is left alone).
 */
export function toStorableJson(value: unknown): string {
  const json = withinNestingLimit(() => JSON.stringify(value));
  // The scan is cheap; the regex only runs on the rare body that holds a NUL.
  return json.includes('\\u0000') ? json.replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd') : json;
}
