import { withinLimit } from '../shared/field-limits.js';
import { readString, type JsonObject } from '../shared/payload-values.js';

/**
 * Every value of Evolution v2's `Events` enum (src/api/types/wa.types.ts). The URL suffix that
 * WEBHOOK_BY_EVENTS appends turns every separator into `-`, so `group-participants-update` can
 * only be told from `group.participants.update` by knowing the real names.
 */
const EVENT_NAMES = [
  'application.startup',
  'instance.create',
  'instance.delete',
  'qrcode.updated',
  'connection.update',
  'status.instance',
  'messages.set',
  'messages.upsert',
  'messages.edited',
  'messages.update',
  'messages.delete',
  'send.message',
  'send.message.update',
  'contacts.set',
  'contacts.upsert',
  'contacts.update',
  'presence.update',
  'chats.set',
  'chats.update',
  'chats.upsert',
  'chats.delete',
  'groups.upsert',
  'groups.update',
  'group-participants.update',
  'call',
  'typebot.start',
  'typebot.change-status',
  'labels.edit',
  'labels.association',
  'creds.update',
  'messaging-history.set',
  'remove.instance',
  'logout.instance',
];

const SLASH = 0x2f;
const NAME_BY_FLAT_SPELLING = new Map(EVENT_NAMES.map((name) => [flatten(name), name]));

/**
 * The body's spelling (`messages.upsert`) from any of the three Evolution uses: the body's, the
 * configuration's (`MESSAGES_UPSERT`) and the URL suffix's (`messages-upsert`, with or without
 * its slash). A name Evolution does not have yet is kept, lowercased, with dots.
 */
export function evolutionEventName(name: string): string {
  const flat = flatten(name);
  return NAME_BY_FLAT_SPELLING.get(flat) ?? flat.replace(/_/g, '.');
}

function flatten(name: string): string {
  return trimSlashes(name.trim())
    .toLowerCase()
    .replace(/[.-]/g, '_');
}

/**
 * `name` without its leading and trailing slashes, in one pass. Not `/^\/+|\/+$/g`: that
 * regex retries `\/+$` from every slash of an inner run, quadratic in its length.
 */
function trimSlashes(name: string): string {
  let start = 0;
  let end = name.length;
  while (start < end && name.charCodeAt(start) === SLASH) start++;
  while (end > start && name.charCodeAt(end - 1) === SLASH) end--;
  return name.slice(start, end);
}

/**
 * What every raw item keeps of the body. A list of what to keep rather than the body minus
 * `apikey`: `apikey` is an Evolution API key (the instance's token in v2; v1's global webhook
 * sent the server's global admin key), `destination` is this service's own URL, where operators
 * put tokens when Evolution cannot send headers, and a field Evolution adds later must not be
 * stored before someone has judged it. `data` is added per item.
 */
export interface Envelope {
  event: string;
  instance: string;
  date_time: unknown;
  /** The instance's own WhatsApp id (Evolution's `wuid`), not the other party. */
  sender: unknown;
  server_url: unknown;
}

/** Null when the body names no event or no instance: nothing can be keyed without them. */
export function readEnvelope(body: JsonObject, pathEvent?: string): Envelope | null {
  const fromBody = withinLimit(readString(body.event), 'event', 'event');
  const named = fromBody ?? (pathEvent === undefined ? null : withinLimit(readString(pathEvent), 'the URL\'s event segment', 'event'));
  const event = named === null ? '' : evolutionEventName(named);
  const instance = withinLimit(readString(body.instance), 'instance', 'tenant');
  if (event === '' || instance === null) return null;
  return {
    event,
    instance,
    date_time: body.date_time ?? null,
    sender: body.sender ?? null,
    server_url: body.server_url ?? null,
  };
}
