import { readEnvelope, type Envelope } from './evolution-envelope.js';
import { messageRefOf, statusRefOf } from './evolution-message-ref.js';
import { evolutionStatusName } from './evolution-status.js';
import { withinLimit } from '../shared/field-limits.js';
import { buildContentKey, buildKey } from '../shared/idempotency-key.js';
import { createEvent, type NormalizedEvent } from '../shared/normalized-event.js';
import { withoutPairingMaterial } from '../shared/pairing-material.js';
import { isJsonObject, listOf, readString, readTimestamp, type JsonObject } from '../shared/payload-values.js';
import { wasenderMessageType } from '../shared/wasender-message-type.js';

export { evolutionEventName } from './evolution-envelope.js';
export { readEvolutionStatus } from './evolution-status.js';

/**
 * Events whose items are whole messages, keyed by their WhatsApp id alone: a message sent
 * through the API comes as send.message and again as messages.upsert (fromMe), history as
 * messages.set, and all must meet on one key. Not messages.edited, send.message.update nor
 * messages.delete: their `key.id` is the id of the message edited or deleted, so keying them by
 * it would drop them as duplicates of that message.
 */
const MESSAGE_EVENTS: ReadonlySet<string> = new Set(['messages.upsert', 'messages.set', 'send.message']);

/**
 * Evolution API body: `{ event, instance, data, destination, date_time, sender, server_url,
 * apikey }`; `data` is one item or a list (messages.set, some versions' upserts). `pathEvent` is
 * the URL suffix WEBHOOK_BY_EVENTS appends, read only when the body names no event. No event or
 * no instance: no event (the caller answers 400).
 */
export function parseEvolutionBody(body: JsonObject, pathEvent?: string): NormalizedEvent[] {
  const envelope = readEnvelope(body, pathEvent);
  if (envelope === null) return [];
  const events = eventsWithIds(envelope, listOf(body.data).filter(isJsonObject));
  // Any other event, and a known one in a shape not read here (no id, an update without a
  // status), is Evolution's all the same: refused, it would be lost (Evolution 2.3 does not retry
  // a 400); stored as a content-keyed `other` event, it is acknowledged and forwarded.
  return events.length > 0 ? events : [otherEvent(envelope, body.data)];
}

function eventsWithIds(envelope: Envelope, items: JsonObject[]): NormalizedEvent[] {
  if (MESSAGE_EVENTS.has(envelope.event)) return keep(items.map((item) => messageEvent(envelope, item)));
  if (envelope.event === 'messages.update') return keep(items.map((item) => statusEvent(envelope, item)));
  return [];
}

function messageEvent(envelope: Envelope, item: JsonObject): NormalizedEvent | null {
  const ref = messageRefOf(item);
  if (ref.id === null) return null;
  return createEvent({
    key: buildKey('evolution', 'msg', [ref.id], envelope.instance),
    source: 'evolution',
    kind: 'message',
    type: messageType(item),
    sender: ref.party,
    tenant: envelope.instance,
    providerTimestamp: readTimestamp(item.messageTimestamp) ?? readTimestamp(envelope.date_time),
    fromMe: ref.fromMe === true,
    // The item alone, not `data`: a messages.set of n messages would otherwise be stored n times.
    raw: { ...envelope, data: item },
  });
}

/** One event per message and status: SERVER_ACK, DELIVERY_ACK and READ of one message are three events. */
function statusEvent(envelope: Envelope, item: JsonObject): NormalizedEvent | null {
  const ref = statusRefOf(item);
  const status = evolutionStatusName(typeof item.status === 'string' ? withinLimit(item.status, 'data.status', 'status') : item.status);
  if (ref.id === null || status === null) return null;
  return createEvent({
    key: buildKey('evolution', 'msg', [ref.id, status], envelope.instance),
    source: 'evolution',
    kind: 'status',
    type: status.toLowerCase(),
    sender: ref.party,
    tenant: envelope.instance,
    // v1 stamped each update (`datetime`, milliseconds); v2 only the delivery.
    providerTimestamp: readTimestamp(item.datetime) ?? readTimestamp(envelope.date_time),
    fromMe: ref.fromMe === true,
    raw: { ...envelope, data: item },
  });
}

/**
 * Connection, QR code, contact, chat, presence, group, call, label, edit and delete events carry
 * no id of their own. The key is the event, its data and `date_time`, within the instance:
 * Evolution builds the body once and posts that same object on every retry and to both the
 * instance's and the global webhook, so a redelivery dedups; while two emissions differ at least
 * in `date_time` (milliseconds), so a state that recurs (a second `open`, a second `composing`) is
 * not swallowed for the whole retention.
 */
function otherEvent(envelope: Envelope, data: unknown): NormalizedEvent {
  const content = { event: envelope.event, data: data ?? null, date_time: envelope.date_time };
  return createEvent({
    key: buildContentKey('evolution', 'other', content, envelope.instance),
    source: 'evolution',
    kind: 'other',
    type: envelope.event,
    sender: null,
    tenant: envelope.instance,
    providerTimestamp: readTimestamp(envelope.date_time),
    fromMe: false,
    // The key hashes the content as sent (two QR refreshes stay two events); the stored copy has no pairing material.
    raw: { ...envelope, data: withoutPairingMaterial('evolution', envelope.event, data ?? null) },
  });
}

/**
 * From the content first; Evolution's `messageType` (Baileys' content field name, `imageMessage`)
 * when the content is missing or unknown, as when only a media URL or base64 was forwarded.
 */
function messageType(item: JsonObject): string {
  const fromContent = wasenderMessageType(item.message);
  const named = readString(item.messageType);
  return fromContent !== 'unknown' || named === null ? fromContent : wasenderMessageType({ [named]: {} });
}

function keep(events: (NormalizedEvent | null)[]): NormalizedEvent[] {
  return events.filter((event): event is NormalizedEvent => event !== null);
}
