import { isJsonObject } from './payload-values.js';

/** What is stored and forwarded in place of a QR code or a pairing code: that one was there, nothing of it. */
export const PAIRING_REDACTED = '[redacted: WhatsApp pairing material]';

/**
 * Fields that hold pairing material in the gateways' pairing events: the QR string and its
 * image (Evolution's `data.qrcode.{code,base64}`, WASender's `data.qr`, a WAHA-compatible
 * `payload.qr`) and the 8-character phone-number pairing code (`pairingCode`). Either links a new
 * device to the WhatsApp account, so either is a credential for as long as it is valid.
 */
const PAIRING_FIELDS: ReadonlySet<string> = new Set(['qr', 'qrcode', 'qrCode', 'qr_code', 'code', 'base64', 'pairingCode', 'pairing_code']);

/**
 * The events that carry pairing material, by source, as their documentation shows them:
 * - Evolution: `qrcode.updated` (`data.qrcode` = `{ pairingCode, code, base64 }`) and
 *   `connection.update`, which some versions send while pairing;
 * - WASender: `qrcode.updated` (`data.qr`);
 * - WAHA: none documented (it serves the QR from its API; `session.status` says SCAN_QR_CODE),
 *   but `session.status` and `engine.event` (the engine's raw events, QR ones included) are
 *   treated the same, so an engine or a compatible server that adds the QR cannot leak it.
 * In these events every field named above, at any depth, is replaced by PAIRING_REDACTED.
 * Evolution's `creds.update` would carry the session's keys themselves: its data goes whole.
 */
const PAIRING_EVENTS: Readonly<Record<'evolution' | 'wasender' | 'waha', ReadonlySet<string>>> = {
  evolution: new Set(['qrcode.updated', 'connection.update']),
  wasender: new Set(['qrcode.updated']),
  waha: new Set(['session.status', 'engine.event']),
};
const CREDENTIAL_EVENTS: ReadonlySet<string> = new Set(['creds.update']);

/** `data` as it may be stored and forwarded for `event` of `source`: pairing material replaced by a marker. */
export function withoutPairingMaterial(source: keyof typeof PAIRING_EVENTS, event: string, data: unknown): unknown {
  if (source === 'evolution' && CREDENTIAL_EVENTS.has(event)) return data === null || data === undefined ? data : PAIRING_REDACTED;
  return PAIRING_EVENTS[source].has(event) ? redact(data, 0) : data;
}

/** Depth-bounded: past it the whole value goes, so nothing deeper can hide a code. */
function redact(value: unknown, depth: number): unknown {
  if (depth > 16) return PAIRING_REDACTED;
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (!isJsonObject(value)) return value;
  // fromEntries defines each member, so a `__proto__` member stays data.
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [name, PAIRING_FIELDS.has(name) && item !== null && item !== undefined ? PAIRING_REDACTED : redact(item, depth + 1)]),
  );
}
