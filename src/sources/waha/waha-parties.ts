import { readString, type JsonObject } from '../shared/payload-values.js';

/**
 * WAHA names parties by chat id: `<number>@c.us` (a phone account; GOWS and NOWEB internals
 * also say `@s.whatsapp.net`, sometimes with a `:<device>`), `<id>@lid` (WhatsApp's hidden user
 * id, not a phone number), `<id>@g.us` (a group), `@newsletter`, `status@broadcast`, and `me`
 * for the account itself in poll events.
 */
const PHONE_SERVERS: ReadonlySet<string> = new Set(['c.us', 's.whatsapp.net']);

/**
 * The sender column as the other sources fill it: a phone account becomes its bare number,
 * as Meta's wa_id and WASender's cleaned numbers are, so one filter finds a contact whichever
 * source carried it. Every other id stays whole: a `@lid` or a group id cut to its digits
 * would pass for a phone number that does not exist.
 */
export function wahaSenderText(jid: string): string {
  const at = jid.lastIndexOf('@');
  if (at <= 0 || !PHONE_SERVERS.has(jid.slice(at + 1).toLowerCase())) return jid;
  return jid.slice(0, at).split(':')[0] || jid;
}

/** The account's own ids from the envelope's `me` (`id`, `lid`, `jid`), compared in one spelling. */
export function ownIds(me: JsonObject | null): ReadonlySet<string> {
  const ids = new Set(['me']);
  for (const value of [me?.id, me?.lid, me?.jid]) {
    const id = readString(value);
    if (id !== null) ids.add(canonical(id));
  }
  return ids;
}

/**
 * The other party of a message-like payload. Engines disagree on `from` and `to`: WEBJS puts
 * the author in `from` and the chat in `to`; NOWEB puts the chat in `from` even for the
 * account's own messages and leaves `to` empty outside groups. So candidates are tried in
 * order and the account's own ids are skipped.
 * - an ack is about a message the account sent: the participant who acknowledged it (groups),
 *   else the chat it went to;
 * - the account's own message: the chat it went to (a group is the other party of a group post);
 * - a received group message: the participant who wrote it, else the group.
 */
export function otherParty(payload: JsonObject, own: ReadonlySet<string>, isAck: boolean): string | null {
  const from = readString(payload.from);
  let candidates: unknown[];
  if (isAck) candidates = [payload.participant, payload.to, payload.from];
  else if (payload.fromMe === true) candidates = [payload.to, payload.from];
  else if (from !== null && isGroup(from)) candidates = [payload.participant, payload.author, payload.from];
  else candidates = [payload.from];
  for (const candidate of candidates) {
    const jid = readString(candidate);
    if (jid !== null && !own.has(canonical(jid))) return wahaSenderText(jid);
  }
  return null;
}

function isGroup(jid: string): boolean {
  return jid.toLowerCase().endsWith('@g.us');
}

/** `123:7@s.whatsapp.net` and `123@c.us` are the same account. */
function canonical(jid: string): string {
  const at = jid.lastIndexOf('@');
  if (at < 0) return jid.toLowerCase();
  const server = jid.slice(at + 1).toLowerCase();
  const user = jid.slice(0, at).split(':')[0] ?? '';
  return `${user}@${server === 's.whatsapp.net' ? 'c.us' : server}`;
}
