import type { NormalizedEvent, ProviderName } from './normalized-event.js';
import { boundedError, type DeliveryStatus } from './status-ladder.js';
import { STATUS_READERS } from './status-readers.js';

export { MAX_ERROR_LENGTH, type DeliveryStatus } from './status-ladder.js';

/** What one status event says about one outbound message. */
export interface DeliveryUpdate {
  /** The provider's id of the message (a wamid for Meta's shapes; the column keeps that name). */
  wamid: string;
  provider: ProviderName;
  /** The tenant whose record it is, for gateways (TENANT_SCOPED_RECORDS); '' for everyone else. */
  tenant: string;
  recipient: string | null;
  status: DeliveryStatus;
  /** When the provider says the status was reached; null when it did not say. */
  at: Date | null;
  error: string | null;
}

/**
 * Gateways number messages per session or instance: the same id from two of them is two
 * messages, and two records. Meta's, 360dialog's and Twilio's ids are global.
 */
export const TENANT_SCOPED_RECORDS: ReadonlySet<ProviderName> = new Set<ProviderName>(['waha', 'evolution', 'wasender']);

/**
 * The delivery record change an event asks for, or null when it asks for none. Statuses that
 * say nothing about progress (pending, deleted, warning, numeric codes we do not know) are
 * null rather than guessed: a wrong guess could never be undone, records only move forward.
 */
export function deliveryUpdateOf(event: NormalizedEvent): DeliveryUpdate | null {
  if (event.kind !== 'status') return null;
  const facts = STATUS_READERS[event.provider](event);
  if (facts.messageId === null || facts.status === null) return null;
  return {
    wamid: facts.messageId,
    provider: event.provider,
    tenant: TENANT_SCOPED_RECORDS.has(event.provider) ? (event.tenant ?? '') : '',
    recipient: event.sender,
    status: facts.status,
    at: event.providerTimestamp,
    error: facts.status === 'failed' ? boundedError(facts.error) : null,
  };
}
