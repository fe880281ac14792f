import { isJsonObject, objectAt } from './payload-values.js';

/**
 * WASender forwards Baileys messages: the content is an object whose one meaningful
 * field names the kind (`imageMessage: {…}`), next to bookkeeping such as
 * `messageContextInfo`. A Map, not an object literal, so `constructor` is not a type.
 */
const TYPE_BY_CONTENT_FIELD = new Map<string, string>([
  ['conversation', 'text'],
  ['extendedTextMessage', 'text'],
  ['imageMessage', 'image'],
  ['videoMessage', 'video'],
  ['ptvMessage', 'video'],
  ['audioMessage', 'audio'],
  ['documentMessage', 'document'],
  ['documentWithCaptionMessage', 'document'],
  ['stickerMessage', 'sticker'],
  ['locationMessage', 'location'],
  ['liveLocationMessage', 'location'],
  ['contactMessage', 'contacts'],
  ['contactsArrayMessage', 'contacts'],
  ['reactionMessage', 'reaction'],
  ['pollCreationMessage', 'poll'],
  ['pollCreationMessageV2', 'poll'],
  ['pollCreationMessageV3', 'poll'],
  ['pollUpdateMessage', 'poll_vote'],
  ['buttonsResponseMessage', 'button'],
  ['templateButtonReplyMessage', 'button'],
  ['listResponseMessage', 'list_reply'],
  ['interactiveResponseMessage', 'interactive'],
  ['editedMessage', 'edit'],
  ['protocolMessage', 'protocol'],
]);

/** Disappearing and view-once messages nest the real content one level down (`{ message: {…} }`). */
const WRAPPER_FIELDS = new Set([
  'ephemeralMessage',
  'viewOnceMessage',
  'viewOnceMessageV2',
  'viewOnceMessageV2Extension',
]);

/** Wrappers can nest (view-once inside ephemeral); a small bound keeps odd input cheap. */
const MAX_WRAPPER_DEPTH = 3;

/** `text`, `image`… from a WASender message's `message` content; `unknown` when nothing matches. */
export function wasenderMessageType(content: unknown): string {
  let current: unknown = content;
  for (let depth = 0; depth <= MAX_WRAPPER_DEPTH && isJsonObject(current); depth++) {
    let unwrapped: unknown = null;
    for (const [field, value] of Object.entries(current)) {
      if (value === null || value === undefined) continue;
      const type = TYPE_BY_CONTENT_FIELD.get(field);
      if (type !== undefined) return type;
      if (WRAPPER_FIELDS.has(field)) unwrapped = objectAt(value, 'message');
    }
    current = unwrapped;
  }
  return 'unknown';
}
