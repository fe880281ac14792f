import { withinLimit } from '../shared/field-limits.js';
import { objectAt, readString, type JsonObject } from '../shared/payload-values.js';

/** Which message an Evolution item is about, and with whom. */
export interface MessageRef {
  /** The WhatsApp message id (Baileys' `key.id`), never Evolution's database id (`messageId`). */
  id: string | null;
  fromMe: boolean | null;
  /** The other party: see otherParty. */
  party: string | null;
}

/** messages.upsert, messages.set and send.message items are Baileys messages: `{ key, message, … }`. */
export function messageRefOf(item: JsonObject): MessageRef {
  const key = objectAt(item, 'key');
  if (key === null) return { id: null, fromMe: null, party: null };
  return { id: withinLimit(readString(key.id), 'data.key.id', 'id'), fromMe: flag(key.fromMe), party: otherParty(key, item) };
}

/**
 * messages.update items: v2 flattens the key beside its own database id (`keyId`, `remoteJid`,
 * `fromMe`, `participant`, `messageId`), v1 spreads the key (`id`, `remoteJid`…); a nested `key`
 * is read as well, in case a version keeps it.
 */
export function statusRefOf(item: JsonObject): MessageRef {
  const nested = objectAt(item, 'key');
  const key = nested ?? item;
  return {
    id: withinLimit(readString(item.keyId), 'data.keyId', 'id') ?? withinLimit(readString(key.id), nested ? 'data.key.id' : 'data.id', 'id'),
    fromMe: flag(item.fromMe) ?? flag(key.fromMe),
    party: otherParty(key, item),
  };
}

/** JID servers of phone numbers: their user part is the number. */
const PHONE_SERVERS: ReadonlySet<string> = new Set(['s.whatsapp.net', 'c.us']);
/** Chats with many members, where the other party is the member (`participant`), not the chat. */
const SHARED_CHAT = /@(g\.us|broadcast)$/;

/**
 * The contact of a one-to-one chat, the member who wrote in a group (or posted a status). Baileys
 * may address either by a LID (`…@lid`) and give the phone JID beside it (`remoteJidAlt`,
 * `participantAlt`; `senderPn`, `participantPn` before Baileys 7): the phone number wins. An own
 * message in a group names no member: the group is the other party.
 */
function otherParty(key: JsonObject, item: JsonObject): string | null {
  const chat = readString(key.remoteJid);
  const candidates =
    chat !== null && SHARED_CHAT.test(chat)
      ? [key.participant, key.participantAlt, key.participantPn, item.participant, chat]
      : [chat, key.remoteJidAlt, key.senderPn];
  const jids = candidates.map(readString).filter((jid): jid is string => jid !== null);
  const phone = jids.find((jid) => PHONE_SERVERS.has(serverOf(jid)));
  return jidParty(phone ?? jids[0] ?? null);
}

/**
 * A phone JID becomes its bare number, as WASender's and Meta's senders are; any other JID
 * (`@lid`, `@g.us`, `@newsletter`) stays whole so it is never mistaken for a number. The device
 * (`:12`) is dropped either way: it changes with the phone, the party does not.
 */
function jidParty(jid: string | null): string | null {
  if (jid === null) return null;
  const at = jid.lastIndexOf('@');
  const user = (at < 0 ? jid : jid.slice(0, at)).split(':')[0]?.trim() ?? '';
  if (user === '') return null;
  const server = serverOf(jid);
  return server === '' || PHONE_SERVERS.has(server) ? user : `${user}@${server}`;
}

function serverOf(jid: string): string {
  const at = jid.lastIndexOf('@');
  return at < 0 ? '' : jid.slice(at + 1).trim().toLowerCase();
}

function flag(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}
