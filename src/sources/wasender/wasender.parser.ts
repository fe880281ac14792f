import { withinLimit } from '../shared/field-limits.js';
import { buildContentKey, buildKey } from '../shared/idempotency-key.js';
import { createEvent, type NormalizedEvent } from '../shared/normalized-event.js';
import { ladderStatus, type StatusFacts } from '../shared/status-ladder.js';
import {
  isJsonObject,
  listOf,
  objectAt,
  readString,
  readText,
  readTimestamp,
  type JsonObject,
} from '../shared/payload-values.js';
import { withoutPairingMaterial } from '../shared/pairing-material.js';
import { wasenderMessageType } from '../shared/wasender-message-type.js';

/** Baileys' numeric message status, as WASender forwards it in `messages.update`. */
const STATUS_NAMES = ['error', 'pending', 'sent', 'delivered', 'read', 'played'];

/**
 * Carried into every raw item instead of the body itself: the body's top-level
 * `sessionId` is the session's API key and must never be stored.
 */
interface Envelope {
  event: string;
  timestamp: unknown;
}

const MESSAGE_EVENT = /^messages(-(personal|group|newsletter))?\.(received|upsert)$/;
const RECEIPT_STATUSES: ReadonlySet<string> = new Set(['delivered', 'read', 'played']);

/** WASenderApi body: `{ event, sessionId, data, timestamp }`; `data` is an object or a list. */
export function parseWasenderBody(body: JsonObject): NormalizedEvent[] {
  const envelope: Envelope = { event: withinLimit(readString(body.event), 'event', 'event') ?? '', timestamp: body.timestamp ?? null };
  const events = eventsWithIds(envelope, listOf(body.data).filter(isJsonObject));
  // Any other event, and a known one in a shape this parser does not read (no id, no status),
  // is WASender's all the same: refused (400), WASender would retry it for days. Stored as a
  // content-keyed `other` event it is acknowledged, counted and forwarded.
  return events.length > 0 ? events : [otherEvent(envelope, body.data)];
}

function eventsWithIds(envelope: Envelope, items: JsonObject[]): NormalizedEvent[] {
  // Same message, same key, whichever subscription delivered it: messages.received, .upsert,
  // or the scoped messages-personal/-group/-newsletter.received variants.
  if (MESSAGE_EVENT.test(envelope.event)) {
    return keep(items.flatMap(messagesOf).map((message) => messageEvent(envelope, message)));
  }
  switch (envelope.event) {
    case 'messages.update':
      return keep(items.map((item) => statusEvent(envelope, item)));
    case 'message-receipt.update':
      return keep(items.map((item) => receiptEvent(envelope, item)));
    default:
      return [];
  }
}

/** `data.messages` is documented as an object for `received` and a list for `upsert`; some variants put the message in `data` itself. */
function messagesOf(item: JsonObject): JsonObject[] {
  const messages = item.messages === undefined ? [item] : listOf(item.messages);
  return messages.filter(isJsonObject);
}

function messageEvent(envelope: Envelope, message: JsonObject): NormalizedEvent | null {
  const key = objectAt(message, 'key');
  const id = withinLimit(readString(key?.id), 'data.messages.key.id', 'id');
  if (key === null || id === null) return null;
  return createEvent({
    key: buildKey('wasender', 'msg', [id]),
    source: 'wasender',
    kind: 'message',
    type: wasenderMessageType(message.message),
    sender: senderOf(key),
    providerTimestamp: readTimestamp(message.messageTimestamp) ?? readTimestamp(envelope.timestamp),
    fromMe: key.fromMe === true,
    raw: { ...envelope, message },
  });
}

function statusEvent(envelope: Envelope, item: JsonObject): NormalizedEvent | null {
  const key = objectAt(item, 'key');
  const id = withinLimit(readString(key?.id), 'data.key.id', 'id');
  const status = statusName(objectAt(item, 'update')?.status);
  if (key === null || id === null || status === null) return null;
  return createEvent({
    key: buildKey('wasender', 'status', [id, status]),
    source: 'wasender',
    kind: 'status',
    type: status,
    sender: senderOf(key),
    providerTimestamp: readTimestamp(envelope.timestamp),
    fromMe: key.fromMe === true,
    raw: { ...envelope, update: item },
  });
}

/**
 * Group receipts: one per participant and stage, all for the same message id. The
 * stage is the furthest timestamp present (played implies read implies delivered).
 */
function receiptEvent(envelope: Envelope, item: JsonObject): NormalizedEvent | null {
  const key = objectAt(item, 'message', 'key') ?? objectAt(item, 'key');
  const receipt = objectAt(item, 'message', 'receipt') ?? objectAt(item, 'receipt');
  const id = withinLimit(readString(key?.id), 'data.key.id', 'id');
  const stage = receipt === null ? null : receiptStage(receipt);
  if (key === null || id === null || receipt === null || stage === null) return null;
  const participant = withinLimit(readText(receipt.userJid), 'receipt.userJid', 'id');
  return createEvent({
    key: buildKey('wasender', 'receipt', participant === null ? [id, stage.kind] : [id, stage.kind, participant]),
    source: 'wasender',
    kind: 'status',
    type: stage.kind,
    sender: numberPart(participant) ?? senderOf(key),
    providerTimestamp: readTimestamp(stage.at) ?? readTimestamp(envelope.timestamp),
    fromMe: key.fromMe === true,
    raw: { ...envelope, receipt: item },
  });
}

/**
 * Baileys' MessageUserReceipt names the stage by its timestamps; the shape in WASender's SDK
 * (`{ userJid, status: "read", t }`) names it outright. Other statuses (sent) are no stage.
 */
function receiptStage(receipt: JsonObject): { kind: string; at: unknown } | null {
  if (isPresent(receipt.playedTimestamp)) return { kind: 'played', at: receipt.playedTimestamp };
  if (isPresent(receipt.readTimestamp)) return { kind: 'read', at: receipt.readTimestamp };
  if (isPresent(receipt.receiptTimestamp)) return { kind: 'delivered', at: receipt.receiptTimestamp };
  const status = withinLimit(readString(receipt.status), 'receipt.status', 'status')?.toLowerCase() ?? null;
  return status !== null && RECEIPT_STATUSES.has(status) ? { kind: status, at: receipt.t } : null;
}

/**
 * Session, chat, contact, group, reaction… events carry no message id, nor does a known event
 * in an unknown shape: the content is the identity.
 */
function otherEvent(envelope: Envelope, data: unknown): NormalizedEvent {
  const content = { event: envelope.event, data: data ?? null, timestamp: envelope.timestamp };
  return createEvent({
    key: buildContentKey('wasender', 'other', content),
    source: 'wasender',
    kind: 'other',
    type: envelope.event || 'unknown',
    sender: null,
    providerTimestamp: readTimestamp(envelope.timestamp),
    fromMe: false,
    // The key hashes the content as sent (two QR refreshes stay two events); the stored copy has no pairing material.
    raw: { ...content, data: withoutPairingMaterial('wasender', envelope.event, content.data) },
  });
}

/** messages.update keeps `update: item`, message-receipt.update `receipt: item`; the status name is the event's type. */
export function readWasenderStatus({ raw, type }: NormalizedEvent): StatusFacts {
  const item = objectAt(raw, 'update') ?? objectAt(raw, 'receipt');
  const key = objectAt(item, 'message', 'key') ?? objectAt(item, 'key');
  // Baileys' ERROR (code 0): the send failed.
  return { messageId: readString(key?.id), status: type === 'error' ? 'failed' : ladderStatus(type), error: null };
}

/** Numeric codes by name; a name sent as text is kept (lowercased); anything else has no key. */
function statusName(status: unknown): string | null {
  if (typeof status === 'number') {
    if (!Number.isInteger(status) || status < 0) return null;
    return STATUS_NAMES[status] ?? String(status);
  }
  const text = withinLimit(readString(status), 'data.update.status', 'status');
  if (text === null) return null;
  return /^\d+$/.test(text) ? statusName(Number(text)) : text.toLowerCase();
}

/** WASender cleans the sender's number itself; older payloads only have JIDs (`<number>[:device]@server`). */
function senderOf(key: JsonObject): string | null {
  return readText(key.cleanedSenderPn) ?? numberPart(key.senderPn) ?? numberPart(key.remoteJid);
}

function numberPart(jid: unknown): string | null {
  const text = readString(jid);
  return text === null ? null : readString(text.split('@')[0]?.split(':')[0]);
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function keep(events: (NormalizedEvent | null)[]): NormalizedEvent[] {
  return events.filter((event): event is NormalizedEvent => event !== null);
}
