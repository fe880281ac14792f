import type { NormalizedEvent, ProviderName } from './normalized-event.js';
import { arrayOf, isJsonObject, objectAt, readString, readText } from './payload-values.js';

/** In the order of the delivery_status enum: a record only ever moves to a later one, failed is terminal. */
export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'played' | 'failed';

/** What one status event says about one outbound message. */
export interface DeliveryUpdate {
  wamid: string;
  provider: ProviderName;
  recipient: string | null;
  status: DeliveryStatus;
  /** When the provider says the status was reached; null when it did not say. */
  at: Date | null;
  error: string | null;
}

/** Enough for a code, a title and a sentence of details; provider texts are otherwise unbounded. */
export const MAX_ERROR_LENGTH = 500;

const STATUSES: ReadonlySet<string> = new Set<DeliveryStatus>(['sent', 'delivered', 'read', 'played', 'failed']);

/**
 * The delivery record change an event asks for, or null when it asks for none. Statuses that
 * say nothing about progress (pending, deleted, warning, numeric codes we do not know) are
 * null rather than guessed: a wrong guess could never be undone, records only move forward.
 */
export function deliveryUpdateOf(event: NormalizedEvent): DeliveryUpdate | null {
  if (event.kind !== 'status') return null;
  const found = locate(event);
  const status = deliveryStatusOf(event.provider, found.status);
  if (found.wamid === null || status === null) return null;
  return {
    wamid: found.wamid,
    provider: event.provider,
    recipient: event.sender,
    status,
    at: event.providerTimestamp,
    error: status === 'failed' ? found.error : null,
  };
}

/** Where each parser left the message id, the status and any error in `raw`. */
function locate({ provider, raw, type }: NormalizedEvent): { wamid: string | null; status: string | null; error: string | null } {
  switch (provider) {
    case 'meta': {
      const status = objectAt(raw, 'status');
      return { wamid: readString(status?.id), status: type, error: metaError(status?.errors) };
    }
    case 'wasender': {
      // messages.update carries `update: item`, message-receipt.update carries `receipt: item`.
      const item = objectAt(raw, 'update') ?? objectAt(raw, 'receipt');
      const key = objectAt(item, 'message', 'key') ?? objectAt(item, 'key');
      return { wamid: readString(key?.id), status: type, error: null };
    }
    case 'generic':
      // Here `type` is the body's type or the event name, never the status.
      return {
        wamid: readText(raw.id) ?? readText(raw.messageId),
        status: readText(raw.status)?.toLowerCase() ?? null,
        error: null,
      };
  }
}

function deliveryStatusOf(provider: ProviderName, status: string | null): DeliveryStatus | null {
  if (status === null) return null;
  // Baileys' ERROR (code 0): the send failed.
  if (provider === 'wasender' && status === 'error') return 'failed';
  return STATUSES.has(status) ? (status as DeliveryStatus) : null;
}

/** `131026 Message undeliverable: <details>` from Meta's first error; null when it gives none. */
function metaError(errors: unknown): string | null {
  const [first] = arrayOf(errors);
  if (!isJsonObject(first)) return null;
  const headline = [readText(first.code), readString(first.title)].filter((part) => part !== null).join(' ');
  const details = readString(objectAt(first, 'error_data')?.details) ?? readString(first.message);
  const text = [headline, details === first.title ? null : details].filter((part) => part).join(': ');
  return text === '' ? null : truncate(text, MAX_ERROR_LENGTH);
}

function truncate(text: string, maxCodePoints: number): string {
  if (text.length <= maxCodePoints) return text;
  return `${Array.from(text).slice(0, maxCodePoints - 1).join('')}…`;
}
