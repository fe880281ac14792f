import { InvalidPayloadError } from '../../common/domain-errors.js';

declare const CANONICAL: unique symbol;

/**
 * A Twilio form body in the one shape both the signature check and the parser read: each name
 * once, a single-valued parameter as a string, any other repeated name as its distinct values,
 * sorted (what X-Twilio-Signature covers: twilio-node signs a repeated name once per distinct
 * value, sorted). Two bodies with the same signed text give equal objects, so what was verified
 * is exactly what is parsed and stored. Only twilioParams() makes one (the brand).
 */
export type TwilioParams = Readonly<Record<string, string | readonly string[]>> & { readonly [CANONICAL]: true };

/**
 * Parameters Twilio documents as single-valued and that decide or describe the event: its key
 * (the sids), kind and type (statuses, MessageType, media count and first type, a location),
 * parties and tenant (AccountSid, MessagingServiceSid, From, To, WaId, ProfileName), content a
 * consumer acts on (Body, ButtonPayload, ButtonText, the replied-to message) and errors. The
 * parser can only read names listed here (SingletonName), so none of them can ever reach it as
 * a list. https://www.twilio.com/docs/messaging/guides/webhook-request and
 * https://www.twilio.com/docs/messaging/guides/track-outbound-message-status.
 */
export const SINGLETON_NAMES = [
  'MessageSid', 'SmsSid', 'SmsMessageSid', 'AccountSid', 'MessagingServiceSid',
  'MessageStatus', 'SmsStatus', 'MessageType', 'NumMedia', 'MediaContentType0', 'Latitude', 'Longitude',
  'From', 'To', 'WaId', 'ProfileName', 'Body', 'ButtonPayload', 'ButtonText',
  'OriginalRepliedMessageSid', 'OriginalRepliedMessageSender',
  'ErrorCode', 'ErrorMessage', 'ChannelStatusMessage',
] as const;
export type SingletonName = (typeof SINGLETON_NAMES)[number];

const SINGLETONS: ReadonlySet<string> = new Set(SINGLETON_NAMES);
/** MediaUrl{N} and MediaContentType{N}: one per media item (Twilio sends at most 10). Anchored, no nesting: linear. */
const MEDIA_ITEM = /^Media(?:Url|ContentType)\d{1,3}$/;

export function isSingleton(name: string): boolean {
  return SINGLETONS.has(name) || MEDIA_ITEM.test(name);
}

/**
 * Twilio's parameter names: a capital, then letters and digits (MessageSid, MediaUrl0…). The
 * signed text is every name followed by its value with no separator, so one signed body can be
 * re-split into other parameters with the same signature (`MessageStatusdelivered` is also
 * `MessageStatusd=elivered`, a status cut short is a name starting in lower case). These rules
 * refuse every re-split that would change an event's key or kind; see checkResplit.
 */
const NAME = /^[A-Z][A-Za-z0-9]*$/;
/** Twilio's sids: a two-letter prefix and 32 hex digits. */
const SID = /^[A-Z]{2}[0-9a-f]{32}$/;
/** A status word (delivered, partially_delivered…); a lower-case letter followed by a capital is another parameter's name swallowed. */
const STATUS = /^[A-Za-z]+(?:_[A-Za-z]+)*$/;
const HUMP = /[a-z][A-Z]/;
const SIDS = ['MessageSid', 'SmsSid', 'SmsMessageSid', 'AccountSid', 'MessagingServiceSid'] as const;
const MESSAGE_SIDS = ['MessageSid', 'SmsSid', 'SmsMessageSid'] as const;
const STATUSES = ['MessageStatus', 'SmsStatus'] as const;

/**
 * The canonical parameters of a decoded form body (FORM_BODY: a string, or a list for a name sent
 * more than once). Throws InvalidPayloadError, naming the parameter when it is one of Twilio's,
 * for a single-valued one sent twice (identical values too: Twilio never does, so it is a
 * tampered or broken request), a name Twilio does not use, and a re-split of a signed body.
 * Called before the signature is checked: one pass over parameters already decoded, it spares a
 * malformed request the HMACs, and its answer says only what the sender itself sent.
 */
export function twilioParams(decoded: unknown): TwilioParams {
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) throw new InvalidPayloadError('body is not a form');
  // In name order, as signed: the first fault named is the same whatever order the body had.
  const entries = Object.entries(decoded).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, value]): [string, string | readonly string[]] => {
    if (!NAME.test(name)) throw new InvalidPayloadError('a parameter name is not one Twilio sends: a capital letter, then letters and digits');
    if (typeof value === 'string') return [name, value];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new InvalidPayloadError(`${name} is not a form value`);
    if (isSingleton(name)) throw new InvalidPayloadError(`${name} is repeated: Twilio sends it once`);
    const distinct = [...new Set(value)].sort();
    return [name, distinct.length === 1 ? distinct[0]! : Object.freeze(distinct)];
  });
  // Object.fromEntries: a parameter named __proto__ stays data.
  const params = Object.freeze(Object.fromEntries(entries)) as TwilioParams;
  checkResplit(params);
  return params;
}

/**
 * A re-split can only move text between names and values. It cannot change a sid without
 * breaking its form (so the key's sid stays, or the request is refused), cannot end a status
 * inside the word (the rest would be a lower-case name) nor run it into the next parameter
 * (a hump), and it can hide a status only by renaming it: any other name that starts a status
 * name or that one starts is refused, so a status callback cannot lose its status and pass for
 * an inbound message.
 */
function checkResplit(params: TwilioParams): void {
  for (const name of SIDS) {
    const sid = paramOf(params, name);
    if (sid !== undefined && sid.trim() !== '' && !SID.test(sid)) throw new InvalidPayloadError(`${name} is not a Twilio sid`);
  }
  const sids = new Set(MESSAGE_SIDS.map((name) => paramOf(params, name)).filter((sid) => sid !== undefined && sid.trim() !== ''));
  if (sids.size > 1) throw new InvalidPayloadError('MessageSid, SmsSid and SmsMessageSid name different messages');
  for (const name of STATUSES) {
    const status = paramOf(params, name);
    if (status !== undefined && status.trim() !== '' && (!STATUS.test(status) || HUMP.test(status))) throw new InvalidPayloadError(`${name} is not a Twilio status`);
  }
  for (const name of Object.keys(params)) {
    const renamed = STATUSES.find((status) => name !== status && (name.startsWith(status) || status.startsWith(name)));
    if (renamed !== undefined) throw new InvalidPayloadError(`a parameter is named like ${renamed} but is not it`);
  }
}

/** A single-valued parameter: only those can be read one value at a time. */
export function paramOf(params: TwilioParams, name: SingletonName): string | undefined {
  const value = params[name];
  return typeof value === 'string' ? value : undefined;
}
