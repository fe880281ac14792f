import type { NormalizedEvent } from './shared/normalized-event.js';
import type { SourceName } from './source-registry.js';
import { boundedError, type ReceiptStatus } from './shared/status-ladder.js';
import { sourceDescriptor, SOURCE_NAMES } from './source-registry.js';

export { MAX_ERROR_LENGTH, type ReceiptStatus } from './shared/status-ladder.js';

/** What one status event says about one outbound message. */
export interface ReceiptUpdate {
  /** The source's id of the message (a wamid for Meta's shapes; the column keeps that name). */
  wamid: string;
  source: SourceName;
  /** The tenant whose record it is, for sources that keep receipts by tenant (TENANT_SCOPED_RECEIPTS); '' for everyone else. */
  tenant: string;
  recipient: string | null;
  status: ReceiptStatus;
  /** When the source says the status was reached; null when it did not say. */
  at: Date | null;
  error: string | null;
}

/**
 * Gateways number messages per session or instance: the same id from two of them is two
 * messages, and two records. Meta's, 360dialog's and Twilio's ids are global. Each source's
 * descriptor says which it is (tenancy.receiptsByTenant).
 */
export const TENANT_SCOPED_RECEIPTS: ReadonlySet<SourceName> = new Set(SOURCE_NAMES.filter((name) => sourceDescriptor(name).tenancy.receiptsByTenant));

/**
 * The receipt change an event asks for, or null when it asks for none. Statuses that
 * say nothing about progress (pending, deleted, warning, numeric codes we do not know) are
 * null rather than guessed: a wrong guess could never be undone, records only move forward.
 */
export function receiptUpdateOf(event: NormalizedEvent): ReceiptUpdate | null {
  if (event.kind !== 'status') return null;
  const source = sourceDescriptor(event.source);
  const facts = source.readStatus(event);
  if (facts.messageId === null || facts.status === null) return null;
  return {
    wamid: facts.messageId,
    source: event.source,
    tenant: source.tenancy.receiptsByTenant ? (event.tenant ?? '') : '',
    recipient: event.sender,
    status: facts.status,
    at: event.providerTimestamp,
    error: facts.status === 'failed' ? boundedError(facts.error) : null,
  };
}
