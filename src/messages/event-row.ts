import type { Selectable } from 'kysely';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import type { Messages } from '../database/tables.js';

/**
 * The columns of a stored event that a worker rebuilds it from (selected as `m.…` by the lease
 * statements). Its payload is the JSON object its source sent.
 */
export type EventRow = Pick<
  Selectable<Messages>,
  'message_id' | 'provider' | 'kind' | 'type' | 'sender' | 'user_id' | 'tenant' | 'provider_timestamp' | 'from_me' | 'authenticated' | 'received_at'
> & { payload: Record<string, unknown> };

/** The normalized event a stored row holds, as its parser made it (and its verification marked it). */
export function eventOfRow(row: EventRow): NormalizedEvent {
  return {
    key: row.message_id,
    source: row.provider,
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
