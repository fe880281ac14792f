import { withinLimit } from '../shared/field-limits.js';
import { buildContentKey, buildKey } from '../shared/idempotency-key.js';
import { createEvent, type EventKind, type NormalizedEvent } from '../shared/normalized-event.js';
import { readString, readText, readTimestamp, type JsonObject } from '../shared/payload-values.js';
import { ladderStatus, type StatusFacts } from '../shared/status-ladder.js';

/**
 * Flat bodies from gateways and tests: `{ event, id, timestamp, from, type, text, tenant }`.
 * One body is one event, or none when nothing in it can identify the event. `webhookId` is
 * the verified Standard Webhooks `webhook-id`, stable across the sender's retries: it keys
 * an event whose body has no id of its own.
 */
export function parseGenericBody(body: JsonObject, webhookId?: string): NormalizedEvent[] {
  const eventName = withinLimit(readString(body.event), 'event', 'event');
  const kind: EventKind = eventName?.toLowerCase().includes('status') ? 'status' : 'message';
  const key = genericKey(body, kind, webhookId);
  if (key === null) return [];
  return [
    createEvent({
      key,
      source: 'generic',
      kind,
      type: readString(body.type) ?? eventName ?? 'unknown',
      sender: readText(body.from),
      tenant: withinLimit(readText(body.tenant), 'tenant', 'tenant'),
      providerTimestamp: readTimestamp(body.timestamp),
      fromMe: body.fromMe === true,
      raw: body,
    }),
  ];
}

function genericKey(body: JsonObject, kind: EventKind, webhookId: string | undefined): string | null {
  const id = withinLimit(readText(body.id), 'id', 'id') ?? withinLimit(readText(body.messageId), 'messageId', 'id');
  if (id !== null) {
    if (kind === 'message') return buildKey('generic', 'msg', [id]);
    // A status usually names the message it is about, so the id alone would merge
    // "delivered" and "read" of that message (and collide with the message itself).
    const status = withinLimit(readText(body.status), 'status', 'status')?.toLowerCase();
    return buildKey('generic', 'status', status === undefined ? [id] : [id, status]);
  }
  if (webhookId !== undefined) return buildKey('generic', 'delivery', [withinLimit(webhookId, 'the webhook-id header', 'id')]);
  const from = body.from ?? null;
  const timestamp = body.timestamp ?? null;
  if (from === null && timestamp === null) return null;
  // Weaker fallback: two distinct events from one sender in the same timestamp unit
  // merge into one, and a sender without a timestamp keeps a single key forever. It
  // only applies to bodies that give no id at all; kind keeps messages and statuses apart.
  return buildContentKey('generic', 'hash', { kind, from, timestamp });
}

/** The flat body is kept whole: its id names the message, its status the step (type is the body's type or event name). */
export function readGenericStatus({ raw }: NormalizedEvent): StatusFacts {
  return {
    messageId: readText(raw.id) ?? readText(raw.messageId),
    status: ladderStatus(readText(raw.status)?.toLowerCase() ?? null),
    error: null,
  };
}
