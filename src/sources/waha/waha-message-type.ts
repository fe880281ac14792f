import { objectAt, readString, type JsonObject } from '../shared/payload-values.js';
import { wasenderMessageType } from '../shared/wasender-message-type.js';

/**
 * WEBJS reports whatsapp-web.js types in `_data.type`; the ones with another name in the shared
 * vocabulary (Meta's, WASender's) are renamed, every other one is kept as WAHA reports it.
 */
const WEBJS_TYPES = new Map<string, string>([
  ['chat', 'text'],
  ['ptt', 'audio'],
  ['ptv', 'video'],
  ['vcard', 'contacts'],
  ['multi_vcard', 'contacts'],
  ['poll_creation', 'poll'],
  ['buttons_response', 'button'],
  ['template_button_reply', 'button'],
  ['list_response', 'list_reply'],
]);

/** whatsmeow's MessageInfo (GOWS): `Type` is text/media/reaction/poll…, `MediaType` refines media. */
const GOWS_MEDIA_TYPES = new Map<string, string>([
  ['ptt', 'audio'],
  ['gif', 'video'],
  ['vcard', 'contacts'],
  ['contact_array', 'contacts'],
  ['livelocation', 'location'],
  ['url', 'text'],
]);

/**
 * `text`, `image`… for a WAHA message. WAHA's own fields are engine-neutral but say little
 * (`hasMedia`, `media.mimetype`); the engine's `_data` says more, in each engine's words:
 * WEBJS `_data.type`, NOWEB the Baileys message in `_data.message`, GOWS `_data.Info`.
 */
export function wahaMessageType(payload: JsonObject): string {
  const data = objectAt(payload, '_data');
  const reported = readString(payload.type) ?? readString(data?.type);
  if (reported !== null) return WEBJS_TYPES.get(reported.toLowerCase()) ?? reported.toLowerCase();
  const baileys = wasenderMessageType(data?.message ?? data?.Message);
  if (baileys !== 'unknown') return baileys;
  const gows = gowsType(objectAt(data, 'Info'));
  if (gows !== null) return gows;
  const mimetype = readString(objectAt(payload, 'media')?.mimetype);
  if (mimetype !== null) return mimetypeKind(mimetype.toLowerCase());
  if (payload.hasMedia === true) return 'media';
  return readString(payload.body) === null ? 'unknown' : 'text';
}

function gowsType(info: JsonObject | null): string | null {
  const media = readString(info?.MediaType)?.toLowerCase() ?? null;
  if (media !== null) return GOWS_MEDIA_TYPES.get(media) ?? media;
  const type = readString(info?.Type)?.toLowerCase() ?? null;
  return type === 'media' ? null : type;
}

function mimetypeKind(mimetype: string): string {
  for (const kind of ['image', 'video', 'audio']) if (mimetype.startsWith(`${kind}/`)) return kind;
  return 'document';
}
