import { statusRefOf } from './evolution-message-ref.js';
import type { NormalizedEvent } from '../shared/normalized-event.js';
import { objectAt, readString } from '../shared/payload-values.js';
import type { ReceiptStatus, StatusFacts } from '../shared/status-ladder.js';

/** Baileys' numeric message status, named as Evolution names it (src/utils/renderStatus.ts). */
const BAILEYS_STATUS_NAMES = ['ERROR', 'PENDING', 'SERVER_ACK', 'DELIVERY_ACK', 'READ', 'PLAYED'];

/**
 * A messages.update status as Evolution names it (`DELIVERY_ACK`): its names upper-cased, a
 * numeric Baileys code by its name, so the same receipt is the same key whichever form came.
 */
export function evolutionStatusName(status: unknown): string | null {
  if (typeof status === 'number') {
    if (!Number.isInteger(status) || status < 0) return null;
    return BAILEYS_STATUS_NAMES[status] ?? String(status);
  }
  const text = readString(status)?.trim();
  if (text === undefined || text === '') return null;
  return /^\d+$/.test(text) ? evolutionStatusName(Number(text)) : text.toUpperCase();
}

/**
 * By event type (the status lowercased): Baileys' names, and the Cloud API's, which Evolution's
 * WhatsApp Business channel upper-cases. PENDING (not yet at the server) and DELETED (Evolution's
 * name for any update without a status, edits included) say nothing about progress.
 */
const LADDER = new Map<string, ReceiptStatus>([
  ['server_ack', 'sent'],
  ['delivery_ack', 'delivered'],
  ['read', 'read'],
  ['played', 'played'],
  ['error', 'failed'],
  ['sent', 'sent'],
  ['delivered', 'delivered'],
  ['failed', 'failed'],
]);

/** messages.update events keep the update as `data`; the status name is the event's type. */
export function readEvolutionStatus({ raw, type }: NormalizedEvent): StatusFacts {
  const item = objectAt(raw, 'data');
  const ref = item === null ? null : statusRefOf(item);
  // A receipt for an inbound message (the instance read it) is no progress of an outbound one.
  const status = ref?.fromMe === false ? null : (LADDER.get(type) ?? null);
  // Evolution forwards no reason with ERROR.
  return { messageId: ref?.id ?? null, status, error: null };
}
