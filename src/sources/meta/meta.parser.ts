import { withinLimit } from '../shared/field-limits.js';
import { buildContentKey, buildKey } from '../shared/idempotency-key.js';
import { createEvent, type NormalizedEvent } from '../shared/normalized-event.js';
import {
  arrayOf,
  isJsonObject,
  objectAt,
  readString,
  readText,
  readTimestamp,
  type JsonObject,
} from '../shared/payload-values.js';

/** The sources that post Meta's Cloud API shape: Meta itself, and 360dialog in its own key namespace. */
export type MetaShapedSource = 'meta' | '360dialog';

/** Where one change sits in the body; copied into each event's raw item. */
interface ChangeContext {
  source: MetaShapedSource;
  field: unknown;
  entryId: unknown;
  value: JsonObject;
  /** The business number the change is for (metadata.phone_number_id): the tenant. */
  tenant: string | null;
}

/**
 * Meta Cloud API body: `entry[] × changes[]`, each change carrying messages, statuses,
 * or some other notification. One POST may hold up to 1,000 updates, so this is a
 * single pass over the body with no per-item searching.
 */
export function parseMetaBody(body: JsonObject, source: MetaShapedSource = 'meta'): NormalizedEvent[] {
  const events: NormalizedEvent[] = [];
  for (const entry of arrayOf(body.entry)) {
    if (!isJsonObject(entry)) continue;
    for (const change of arrayOf(entry.changes)) {
      if (isJsonObject(change)) collectChange(source, entry, change, events);
    }
  }
  return events;
}

/**
 * A change's messages and statuses, each keyed by its own id. A change without any, or whose
 * every item lacks a usable id or status, is one `other` event: it is still Meta's, and a 400
 * would have Meta retry it for 7 days. Items without an id beside ones with an id are dropped.
 */
function collectChange(source: MetaShapedSource, entry: JsonObject, change: JsonObject, events: NormalizedEvent[]): void {
  const value = isJsonObject(change.value) ? change.value : {};
  const found = events.length;
  const tenant = withinLimit(readText(objectAt(value, 'metadata')?.phone_number_id), 'metadata.phone_number_id', 'tenant');
  const context: ChangeContext = { source, field: change.field ?? null, entryId: entry.id ?? null, value, tenant };
  const contactsById = indexContacts(value.contacts);
  for (const message of arrayOf(value.messages)) {
    const event = isJsonObject(message) ? messageEvent(context, message, contactsById) : null;
    if (event) events.push(event);
  }
  for (const status of arrayOf(value.statuses)) {
    const event = isJsonObject(status) ? statusEvent(context, status) : null;
    if (event) events.push(event);
  }
  if (events.length === found) events.push(otherEvent(context, entry, change));
}

/**
 * A user with a username may withhold the phone number: `from` is then absent and only the
 * business-scoped user id (`from_user_id`, BSUID) names them; a message with neither is from the
 * change's contact when there is only one (its `user_id`). The key never depends on any of them.
 */
function messageEvent(context: ChangeContext, message: JsonObject, contactsById: Map<string, JsonObject>): NormalizedEvent | null {
  const wamid = withinLimit(readString(message.id), 'messages[].id', 'id');
  if (wamid === null) return null;
  const phone = readText(message.from);
  const fromUserId = readText(message.from_user_id);
  const named = (phone === null ? null : contactsById.get(phone)) ?? (fromUserId === null ? null : contactsById.get(fromUserId));
  const contact = named ?? (phone === null && fromUserId === null ? soleContact(context.value) : null);
  const userId = fromUserId ?? readText(contact?.user_id);
  return createEvent({
    key: buildKey(context.source, 'msg', [wamid]),
    source: context.source,
    kind: 'message',
    type: readString(message.type) ?? 'unknown',
    sender: phone ?? userId,
    userId,
    tenant: context.tenant,
    providerTimestamp: readTimestamp(message.timestamp),
    fromMe: false,
    raw: {
      field: context.field,
      entryId: context.entryId,
      metadata: context.value.metadata ?? null,
      contact,
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
  const wamid = withinLimit(readString(status.id), 'statuses[].id', 'id');
  const statusValue = withinLimit(readString(status.status), 'statuses[].status', 'status')?.toLowerCase() ?? null;
  if (wamid === null || statusValue === null) return null;
  const participant = withinLimit(readText(status.recipient_participant_id), 'statuses[].recipient_participant_id', 'id');
  const keyParts = participant === null ? [wamid, statusValue] : [wamid, statusValue, participant];
  const userId = readText(status.recipient_user_id);
  return createEvent({
    key: buildKey(context.source, 'status', keyParts),
    source: context.source,
    kind: 'status',
    type: statusValue,
    sender: readText(status.recipient_id) ?? userId,
    userId,
    tenant: context.tenant,
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
function otherEvent(context: ChangeContext, entry: JsonObject, change: JsonObject): NormalizedEvent {
  const raw = {
    field: change.field ?? null,
    entryId: entry.id ?? null,
    entryTime: entry.time ?? null,
    value: change.value ?? null,
  };
  const contact = soleContact(change.value);
  const userId = readText(contact?.user_id);
  return createEvent({
    key: buildContentKey(context.source, 'other', raw),
    source: context.source,
    kind: 'other',
    type: readString(change.field) ?? 'unknown',
    sender: readText(contact?.wa_id) ?? userId,
    userId,
    tenant: context.tenant,
    providerTimestamp: readTimestamp(entry.time),
    fromMe: false,
    raw,
  });
}

/** With a single contact the change is plainly about that user; with several, nobody is "the" sender. */
function soleContact(value: unknown): JsonObject | null {
  const contacts = isJsonObject(value) ? arrayOf(value.contacts) : [];
  const [contact] = contacts;
  return contacts.length === 1 && isJsonObject(contact) ? contact : null;
}

/** Contacts by phone number (wa_id) and by business-scoped user id, whichever they carry. */
function indexContacts(contacts: unknown): Map<string, JsonObject> {
  const byId = new Map<string, JsonObject>();
  for (const contact of arrayOf(contacts)) {
    if (!isJsonObject(contact)) continue;
    for (const id of [readText(contact.wa_id), readText(contact.user_id)]) {
      if (id !== null && !byId.has(id)) byId.set(id, contact);
    }
  }
  return byId;
}
