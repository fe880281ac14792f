import { withinLimit } from '../shared/field-limits.js';
import { buildContentKey, buildKey } from '../shared/idempotency-key.js';
import { createEvent, type NormalizedEvent } from '../shared/normalized-event.js';
import { objectAt, readString, readTimestamp, type JsonObject } from '../shared/payload-values.js';
import type { StatusFacts } from '../shared/status-ladder.js';
import { withoutPairingMaterial } from '../shared/pairing-material.js';
import { readWahaAck } from './waha-ack.js';
import { wahaMessageType } from './waha-message-type.js';
import { otherParty, ownIds } from './waha-parties.js';

/**
 * What every raw item carries from the envelope. `metadata` (free key-values the operator set
 * on the session, possibly personal data) and `environment` (WAHA version, tier, engine,
 * browser path) are left out: nothing downstream needs them. WAHA puts no credential in the
 * envelope (the API key never travels in webhooks). The payload is kept whole although its
 * `media.url` can be a presigned S3 link, a short-lived download credential: it is the only way
 * downstream can fetch the file.
 */
interface Envelope {
  id: unknown;
  timestamp: unknown;
  event: string;
  session: string;
  me: unknown;
  engine: unknown;
}

const MESSAGE_EVENTS: ReadonlySet<string> = new Set(['message', 'message.any']);
const ACK_EVENTS: ReadonlySet<string> = new Set(['message.ack', 'message.ack.group']);

/**
 * WAHA body: `{ id, timestamp, event, session, metadata, me, payload, engine, environment }`,
 * one event per body. Without a session or an event name nothing can be scoped or named: no
 * events, and the caller answers 400.
 */
export function parseWahaBody(body: JsonObject): NormalizedEvent[] {
  const event = withinLimit(readString(body.event), 'event', 'event');
  const session = withinLimit(readString(body.session), 'session', 'tenant');
  if (event === null || session === null) return [];
  const envelope: Envelope = {
    id: body.id ?? null,
    timestamp: body.timestamp ?? null,
    event,
    session,
    me: body.me ?? null,
    engine: body.engine ?? null,
  };
  const payload = objectAt(body, 'payload');
  const own = ownIds(objectAt(body, 'me'));
  return [identified(envelope, payload, own) ?? otherEvent(envelope, body.payload ?? null, payload, own)];
}

function identified(envelope: Envelope, payload: JsonObject | null, own: ReadonlySet<string>): NormalizedEvent | null {
  if (payload === null) return null;
  if (MESSAGE_EVENTS.has(envelope.event)) return messageEvent(envelope, payload, own);
  return ACK_EVENTS.has(envelope.event) ? ackEvent(envelope, payload, own) : null;
}

/** `message` (received only) and `message.any` (all, own ones too) carry the same payload for one message: one key. */
function messageEvent(envelope: Envelope, payload: JsonObject, own: ReadonlySet<string>): NormalizedEvent | null {
  const id = withinLimit(readString(payload.id), 'payload.id', 'id');
  if (id === null) return null;
  return createEvent({
    key: buildKey('waha', 'msg', [id], envelope.session),
    source: 'waha',
    kind: 'message',
    type: wahaMessageType(payload),
    sender: otherParty(payload, own, false),
    tenant: envelope.session,
    providerTimestamp: readTimestamp(payload.timestamp) ?? readTimestamp(envelope.timestamp),
    fromMe: payload.fromMe === true,
    raw: { ...envelope, payload },
  });
}

/**
 * One key per message and step, so SERVER, DEVICE, READ of one message are three events and a
 * redelivered READ is a duplicate. A group ack's id ends with the reader (`…_<participant>`),
 * which keeps each reader's acks apart.
 */
function ackEvent(envelope: Envelope, payload: JsonObject, own: ReadonlySet<string>): NormalizedEvent | null {
  const id = withinLimit(readString(payload.id), 'payload.id', 'id');
  const ack = readWahaAck(payload);
  if (id === null || ack === null) return null;
  return createEvent({
    key: buildKey('waha', 'ack', [id, String(ack.code)], envelope.session),
    source: 'waha',
    kind: 'status',
    type: ack.name,
    sender: otherParty(payload, own, true),
    tenant: envelope.session,
    // The ack has no time of its own; a payload timestamp, where an engine adds one, is the message's.
    providerTimestamp: readTimestamp(envelope.timestamp) ?? readTimestamp(payload.timestamp),
    fromMe: payload.fromMe === true,
    raw: { ...envelope, payload },
  });
}

/**
 * Session, reaction, group, call, label… events, and a message or ack WAHA sent without an id:
 * no id to key on. The key hashes `{ event, id, timestamp, payload }`: a retry resends the very
 * same body, so it hashes the same, while WAHA gives each emitted event its own `evt_…` id and
 * millisecond timestamp, so two alike events (WORKING now and WORKING after a restart) differ.
 * `me`, `engine` and `environment` are left out: they describe the session, not the event, and
 * `me` can be filled in between two webhooks that carry the same event. Bodies from WAHA before
 * the envelope had an id fall back to the payload, which for most events holds a time of its own.
 */
function otherEvent(envelope: Envelope, content: unknown, payload: JsonObject | null, own: ReadonlySet<string>): NormalizedEvent {
  const identity = { event: envelope.event, id: envelope.id, timestamp: envelope.timestamp, payload: content };
  return createEvent({
    key: buildContentKey('waha', 'other', identity, envelope.session),
    source: 'waha',
    kind: 'other',
    type: envelope.event,
    sender: payload === null ? null : otherParty(payload, own, false),
    tenant: envelope.session,
    providerTimestamp: readTimestamp(payload?.timestamp) ?? readTimestamp(envelope.timestamp),
    fromMe: payload?.fromMe === true,
    // The key hashes the content as sent; the stored copy has no pairing material.
    raw: { ...envelope, payload: withoutPairingMaterial('waha', envelope.event, content) },
  });
}

/**
 * Acks as the parser stored them: the ladder step from the number (or name) in `raw.payload`.
 * A group ack names the message with the reader appended; the receipt is the
 * message's, so the reader is cut off. WAHA gives no reason for ERROR.
 */
export function readWahaStatus({ raw }: NormalizedEvent): StatusFacts {
  const payload = objectAt(raw, 'payload');
  const ack = readWahaAck(payload);
  return { messageId: outboundId(raw.event, payload), status: ack?.status ?? null, error: null };
}

function outboundId(event: unknown, payload: JsonObject | null): string | null {
  const id = readString(payload?.id);
  const reader = readString(payload?.participant);
  if (id === null || event !== 'message.ack.group' || reader === null) return id;
  return id.endsWith(`_${reader}`) && id.length > reader.length + 1 ? id.slice(0, -(reader.length + 1)) : id;
}
