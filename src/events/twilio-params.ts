import { InvalidPayloadError } from '../common/domain-errors.js';

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
 * The canonical parameters of a decoded form body (FORM_BODY: a string, or a list for a name sent
 * more than once). Throws InvalidPayloadError, naming the parameter, for a single-valued one sent
 * twice (identical values too: Twilio never does, so it is a tampered or broken request) and for
 * a nameless one (it adds nothing to the signed text, so it could be appended to any signed body).
 * Called before the signature is checked: it costs one pass over parameters already decoded,
 * spares a malformed request the HMACs, and its answer says only what the sender itself sent.
 */
export function twilioParams(decoded: unknown): TwilioParams {
  if (typeof decoded !== 'object' || decoded === null || Array.isArray(decoded)) throw new InvalidPayloadError('body is not a form');
  // In name order, as signed: the first fault named is the same whatever order the body had.
  const entries = Object.entries(decoded).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, value]): [string, string | readonly string[]] => {
    if (name === '') throw new InvalidPayloadError('a parameter has no name');
    if (typeof value === 'string') return [name, value];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new InvalidPayloadError(`${name} is not a form value`);
    if (isSingleton(name)) throw new InvalidPayloadError(`${name} is repeated: Twilio sends it once`);
    const distinct = [...new Set(value)].sort();
    return [name, distinct.length === 1 ? distinct[0]! : Object.freeze(distinct)];
  });
  // Object.fromEntries: a parameter named __proto__ stays data.
  return Object.freeze(Object.fromEntries(entries)) as TwilioParams;
}

/** A single-valued parameter: only those can be read one value at a time. */
export function paramOf(params: TwilioParams, name: SingletonName): string | undefined {
  const value = params[name];
  return typeof value === 'string' ? value : undefined;
}
