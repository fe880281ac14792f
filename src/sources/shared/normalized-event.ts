import { storableText } from '../../common/storable-json.js';
import type { SourceName } from '../source-registry.js';

export type EventKind = 'message' | 'status' | 'other';

/**
 * One event of one webhook request, whatever the source. Parsers produce it at the edge;
 * everything after (claim, worker, inspection) works on this type only.
 */
export interface NormalizedEvent {
  /** Idempotency key: namespaced by source, at most 255 characters. */
  key: string;
  /** Its source (the column, the JSON answers and forwards keep the public name `provider`). */
  source: SourceName;
  kind: EventKind;
  /** Message type (text, image…), status value (delivered, read…), or the field/event name for `other`; at most 64 characters. */
  type: string;
  /**
   * The other party: the sender of a message, the recipient of a status; null when there is
   * none. Its phone number (or chat id) when the source gave one, else its user id.
   */
  sender: string | null;
  /** The other party's business-scoped user id (Meta's `user_id`, sent with or instead of the phone number). */
  userId: string | null;
  /**
   * The business number or instance the event belongs to (Meta's phone_number_id, a WAHA
   * session, an Evolution instance…); null when the source does not say. Unbounded in
   * number: never a metric label.
   */
  tenant: string | null;
  /**
   * When the source says the event happened: the source's own time (column `provider_timestamp`,
   * `timestamp` in answers and forwards), as opposed to when this service received it.
   */
  providerTimestamp: Date | null;
  /** True for the account's own messages echoed back (WASender `key.fromMe`). */
  fromMe: boolean;
  /**
   * Whether the webhook request proved its origin with its source's credential. Only authenticated
   * events may change shared state (receipts, replies); parsers leave it false.
   */
  authenticated: boolean;
  /** The source's item with the context needed to process it later (stored as JSON). */
  raw: Record<string, unknown>;
}

export const MAX_TYPE_LENGTH = 64;
export const MAX_SENDER_LENGTH = 128;
export const MAX_TENANT_LENGTH = 128;

/** What a parser gives createEvent; the user id and tenant default to null. */
export type EventFields = Omit<NormalizedEvent, 'authenticated' | 'userId' | 'tenant'> & Partial<Pick<NormalizedEvent, 'userId' | 'tenant'>>;

/**
 * Every parser builds its events here so the column bounds hold whatever the source
 * sent. Cuts on code points, never inside a surrogate pair; NUL and lone surrogates, which
 * PostgreSQL cannot store, become U+FFFD. (Keys are made storable by buildKey.)
 */
export function createEvent(fields: EventFields): NormalizedEvent {
  return {
    ...fields,
    authenticated: false,
    type: storableText(truncate(fields.type, MAX_TYPE_LENGTH)),
    sender: bounded(fields.sender, MAX_SENDER_LENGTH),
    userId: bounded(fields.userId ?? null, MAX_SENDER_LENGTH),
    tenant: bounded(fields.tenant ?? null, MAX_TENANT_LENGTH),
  };
}

function bounded(text: string | null, maxCodePoints: number): string | null {
  return text === null ? null : storableText(truncate(text, maxCodePoints));
}

function truncate(text: string, maxCodePoints: number): string {
  if (text.length <= maxCodePoints) return text;
  return Array.from(text).slice(0, maxCodePoints).join('');
}
