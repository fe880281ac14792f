import { withinLimit } from '../shared/field-limits.js';
import { readString, type JsonObject } from '../shared/payload-values.js';
import type { ReceiptStatus } from '../shared/status-ladder.js';

/** A `message.ack` payload's step: WAHA sends the number (`ack`) and its name (`ackName`). */
export interface WahaAck {
  /** The number as WAHA sent it, or the one its name stands for. */
  code: number;
  /** The event type: the ladder status, `pending`, or WAHA's own name lowercased. */
  name: string;
  status: ReceiptStatus | null;
}

/**
 * WAHA's WAMessageAck (src/structures/enums.dto.ts in devlikeapro/waha). PENDING says nothing
 * about progress; ERROR is the send failing, terminal as `failed` is on the ladder.
 */
const ACKS: readonly { code: number; name: string; type: string; status: ReceiptStatus | null }[] = [
  { code: -1, name: 'ERROR', type: 'failed', status: 'failed' },
  { code: 0, name: 'PENDING', type: 'pending', status: null },
  { code: 1, name: 'SERVER', type: 'sent', status: 'sent' },
  { code: 2, name: 'DEVICE', type: 'delivered', status: 'delivered' },
  { code: 3, name: 'READ', type: 'read', status: 'read' },
  { code: 4, name: 'PLAYED', type: 'played', status: 'played' },
];

/**
 * The number wins when both came (the docs say they always match). A name alone is read too;
 * WAHA's `UNKNOWN` (NOWEB's receipt without any timestamp) or nothing at all is no step.
 */
export function readWahaAck(payload: JsonObject | null): WahaAck | null {
  const code = ackCode(payload?.ack);
  const name = withinLimit(readString(payload?.ackName), 'payload.ackName', 'status')?.trim().toUpperCase() ?? null;
  if (code !== null) {
    const known = ACKS.find((ack) => ack.code === code);
    if (known !== undefined) return { code, name: known.type, status: known.status };
    return { code, name: name?.toLowerCase() ?? String(code), status: null };
  }
  const known = ACKS.find((ack) => ack.name === name);
  return known === undefined ? null : { code: known.code, name: known.type, status: known.status };
}

function ackCode(value: unknown): number | null {
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}
