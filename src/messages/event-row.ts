import type { EventKind, NormalizedEvent, ProviderName } from '../events/normalized-event.js';

/** The columns of a stored event that a worker rebuilds it from (selected as `m.…` by the lease statements). */
export interface EventRow {
  message_id: string;
  provider: ProviderName;
  kind: EventKind;
  type: string;
  sender: string | null;
  user_id: string | null;
  tenant: string | null;
  provider_timestamp: Date | null;
  from_me: boolean;
  authenticated: boolean;
  payload: Record<string, unknown>;
  received_at: Date;
}

/** The normalized event a stored row holds, as its parser made it (and its verification marked it). */
export function eventOfRow(row: EventRow): NormalizedEvent {
  return {
    key: row.message_id,
    provider: row.provider,
    kind: row.kind,
    type: row.type,
    sender: row.sender,
    userId: row.user_id,
    tenant: row.tenant,
    providerTimestamp: row.provider_timestamp,
    fromMe: row.from_me,
    authenticated: row.authenticated,
    raw: row.payload,
  };
}
