import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import { toStorableJson } from '../common/storable-json.js';
import type { ClaimRow } from '../messages/claim-row.js';

/**
 * The row an event is claimed with. Serializing here, per request and before batching, keeps
 * a body that cannot be stored from failing the webhook requests it would have been batched with.
 */
export function toClaimRow(event: NormalizedEvent): ClaimRow {
  return {
    key: event.key,
    source: event.source,
    kind: event.kind,
    type: event.type,
    sender: event.sender,
    userId: event.userId,
    tenant: event.tenant,
    providerTimestamp: event.providerTimestamp,
    fromMe: event.fromMe,
    authenticated: event.authenticated,
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
