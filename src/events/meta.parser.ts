import { buildContentKey, buildKey } from './idempotency-key.js';
import { createEvent, type NormalizedEvent } from './normalized-event.js';
import {
  arrayOf,
  isJsonObject,
  readString,
  readText,
  readTimestamp,
  type JsonObject,
} from './payload-values.js';

/** Where one change sits in the body; copied into each event's raw item. */
interface ChangeContext {
  field: unknown;
  entryId: unknown;
  value: JsonObject;
}

/**
 * Meta Cloud API body: `entry[] × changes[]`, each change carrying messages, statuses,
 * or some other notification. One POST may hold up to 1,000 updates, so this is a
 * single pass over the body with no per-item searching.
 */
export function parseMetaBody(body: JsonObject): NormalizedEvent[] {
  const events: NormalizedEvent[] = [];
  for (const entry of arrayOf(body.entry)) {
    if (!isJsonObject(entry)) continue;
    for (const change of arrayOf(entry.changes)) {
      if (isJsonObject(change)) collectChange(entry, change, events);
    }
  }
  return events;
}

/**
 * A change's messages and statuses, each keyed by its own id. A change without any, or whose
 * every item lacks a usable id or status, is one `other` event: it is still Meta's, and a 400
 * would have Meta retry it for 7 days. Items without an id beside ones with an id are dropped.
 */
function collectChange(entry: JsonObject, change: JsonObject, events: NormalizedEvent[]): void {
  const value = isJsonObject(change.value) ? change.value : {};
  const found = events.length;
  const context: ChangeContext = { field: change.field ?? null, entryId: entry.id ?? null, value };
  const contactsByWaId = indexContacts(value.contacts);
  for (const message of arrayOf(value.messages)) {
    const event = isJsonObject(message) ? messageEvent(context, message, contactsByWaId) : null;
    if (event) events.push(event);
  }
  for (const status of arrayOf(value.statuses)) {
    const event = isJsonObject(status) ? statusEvent(context, status) : null;
    if (event) events.push(event);
  }
  if (events.length === found) events.push(otherEvent(entry, change));
}

function messageEvent(
  context: ChangeContext,
  message: JsonObject,
  contactsByWaId: Map<string, unknown>,
): NormalizedEvent | null {
  const wamid = readString(message.id);
  if (wamid === null) return null;
  const sender = readText(message.from);
  return createEvent({
    key: buildKey('meta', 'msg', [wamid]),
    provider: 'meta',
    kind: 'message',
    type: readString(message.type) ?? 'unknown',
    sender,
    providerTimestamp: readTimestamp(message.timestamp),
    fromMe: false,
    raw: {
      field: context.field,
      entryId: context.entryId,
      metadata: context.value.metadata ?? null,
      contact: sender === null ? null : (contactsByWaId.get(sender) ?? null),
      message,
      errors: context.value.errors ?? null,
    },
  });
}

/**
 * Every status of one message (sent, delivered, read…) carries that message's wamid, so
 * the status value is part of the key; in groups each participant reports separately.
 */
function statusEvent(context: ChangeContext, status: JsonObject): NormalizedEvent | null {
  const wamid = readString(status.id);
  const statusValue = readString(status.status)?.toLowerCase() ?? null;
  if (wamid === null || statusValue === null) return null;
  const participant = readText(status.recipient_participant_id);
  const keyParts = participant === null ? [wamid, statusValue] : [wamid, statusValue, participant];
  return createEvent({
    key: buildKey('meta', 'status', keyParts),
    provider: 'meta',
    kind: 'status',
    type: statusValue,
    sender: readText(status.recipient_id),
    providerTimestamp: readTimestamp(status.timestamp),
    fromMe: false,
    raw: { field: context.field, entryId: context.entryId, metadata: context.value.metadata ?? null, status },
  });
}

/**
 * Template, account, call, echo and preference notifications (and messages or statuses
 * without an id) have no id we could trust to be unique, so the whole change is the identity: an identical redelivery hashes to
 * the same key, a change that differs in any byte of meaning does not.
 */
function otherEvent(entry: JsonObject, change: JsonObject): NormalizedEvent {
  const raw = {
    field: change.field ?? null,
    entryId: entry.id ?? null,
    entryTime: entry.time ?? null,
    value: change.value ?? null,
  };
  return createEvent({
    key: buildContentKey('meta', 'other', raw),
    provider: 'meta',
    kind: 'other',
    type: readString(change.field) ?? 'unknown',
    sender: soleContactWaId(change.value),
    providerTimestamp: readTimestamp(entry.time),
    fromMe: false,
    raw,
  });
}

/** With a single contact the change is plainly about that user; with several, nobody is "the" sender. */
function soleContactWaId(value: unknown): string | null {
  const contacts = isJsonObject(value) ? arrayOf(value.contacts) : [];
  const [contact] = contacts;
  return contacts.length === 1 && isJsonObject(contact) ? readText(contact.wa_id) : null;
}

function indexContacts(contacts: unknown): Map<string, unknown> {
  const byWaId = new Map<string, unknown>();
  for (const contact of arrayOf(contacts)) {
    const waId = isJsonObject(contact) ? readText(contact.wa_id) : null;
    if (waId !== null && !byWaId.has(waId)) byWaId.set(waId, contact);
  }
  return byWaId;
}
