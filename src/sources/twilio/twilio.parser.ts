import { buildKey } from '../shared/idempotency-key.js';
import { createEvent, type NormalizedEvent } from '../shared/normalized-event.js';
import type { ReceiptStatus, StatusFacts } from '../shared/status-ladder.js';
import { readString } from '../shared/payload-values.js';
import { paramOf, type SingletonName, type TwilioParams } from './twilio-params.js';

/**
 * Twilio Programmable Messaging (WhatsApp senders). One form POST carries one event: an
 * inbound message (the incoming-message webhook) or one step of an outbound message (its
 * StatusCallback). Parameter names as documented at
 * https://www.twilio.com/docs/messaging/guides/webhook-request and
 * https://www.twilio.com/docs/messaging/guides/track-outbound-message-status.
 */

/**
 * The status an inbound message is reported with. Twilio's docs note an incoming message can
 * also raise a status callback, `received`: same message, so it takes the message's key.
 */
const INBOUND_STATUS = 'received';

/**
 * Twilio's outbound statuses on the status ladder. Left off on purpose: queued, accepted,
 * scheduled and sending (still inside Twilio, the ladder starts at sent); receiving and
 * received (inbound); partially_delivered (some recipients only: delivered would overstate
 * it); canceled (the business withdrew a scheduled message before any attempt; failed is
 * terminal and would pin an error on a message nobody tried to deliver). A Map, not an object
 * literal, so a status named like a prototype member (`constructor`) reads as nothing.
 */
const LADDER: ReadonlyMap<string, ReceiptStatus> = new Map([
  ['sent', 'sent'],
  ['delivered', 'delivered'],
  ['read', 'read'],
  ['failed', 'failed'],
  ['undelivered', 'failed'],
]);

const WHATSAPP_PREFIX = /^whatsapp:/i;

/**
 * `params` are the canonical parameters the signature was checked over (twilioParams): the same
 * object, so nothing is read here that was not verified, and every field read is single-valued.
 */
export function parseTwilioBody(params: TwilioParams): NormalizedEvent[] {
  const sid = messageSid(params);
  if (sid === null) return [];
  const status = statusOf(params);
  const account = one(params, 'AccountSid');
  // Every verified parameter is kept, as verified: the media fields (NumMedia, MediaUrlN,
  // MediaContentTypeN) are what a later step fetches the media with. The form carries no
  // credential of ours.
  const raw = { ...params };
  if (status === null || status === INBOUND_STATUS) {
    return [
      createEvent({
        key: buildKey('twilio', 'msg', [sid]),
        source: 'twilio',
        kind: 'message',
        type: messageType(params),
        sender: address(one(params, 'From')),
        tenant: tenantOf(account, one(params, 'To')),
        providerTimestamp: null,
        fromMe: false,
        raw,
      }),
    ];
  }
  // On a status callback the roles swap: From is the business sender, To the user. The
  // tenant is still the business number, so it is read from From here (a tenant taken from
  // To, as for inbound messages, would file each user's receipts under the user's number).
  return [
    createEvent({
      key: buildKey('twilio', 'status', [sid, status]),
      source: 'twilio',
      kind: 'status',
      type: status,
      sender: address(one(params, 'To')),
      tenant: tenantOf(account, one(params, 'From')),
      // Twilio sends no event time (RawDlrDoneDate is SMS-only, to the minute).
      providerTimestamp: null,
      fromMe: false,
      raw,
    }),
  ];
}

/** The parser keeps every parameter as `raw` and the lowercased status as `type`. */
export function readTwilioStatus({ raw, type }: NormalizedEvent): StatusFacts {
  const stored = (name: SingletonName) => readString(raw[name]);
  return { messageId: sidOf(stored), status: LADDER.get(type) ?? null, error: errorOf(stored) };
}

/** A single-valued parameter, blank as null. */
function one(params: TwilioParams, name: SingletonName): string | null {
  return readString(paramOf(params, name));
}

function messageSid(params: TwilioParams): string | null {
  return sidOf((name) => one(params, name));
}

/**
 * MessageSid; SmsSid and SmsMessageSid are documented as the same value, kept for backward
 * compatibility, so they stand in when it is missing (never when it is repeated: that is a 400
 * before anything is parsed, see twilioParams).
 */
function sidOf(read: (name: SingletonName) => string | null): string | null {
  return read('MessageSid') ?? read('SmsSid') ?? read('SmsMessageSid');
}

/**
 * MessageStatus names the step of a status callback; older callbacks and inbound messages
 * carry only SmsStatus (`received` on inbound). Neither present reads as an inbound message:
 * Twilio's incoming-message webhook is the one without a lifecycle to report. That is why a
 * signed callback must not be able to lose its status by a re-cut of its parameters
 * (`MessageStatusd=elivered` signs like `MessageStatus=delivered`): twilioParams refuses those.
 */
function statusOf(params: TwilioParams): string | null {
  const status = one(params, 'MessageStatus') ?? one(params, 'SmsStatus');
  return status === null ? null : status.trim().toLowerCase();
}

/**
 * Twilio's own MessageType (text, image, location, button, interactive…) when it sends one;
 * otherwise read from the first media item or a shared location, else plain text.
 */
function messageType(params: TwilioParams): string {
  const declared = one(params, 'MessageType');
  if (declared !== null) return declared.trim().toLowerCase();
  const contentType = one(params, 'MediaContentType0');
  if (contentType !== null || Number(one(params, 'NumMedia') ?? 0) > 0) return mediaType(contentType);
  if (one(params, 'Latitude') !== null && one(params, 'Longitude') !== null) return 'location';
  return 'text';
}

function mediaType(contentType: string | null): string {
  if (contentType === null) return 'media';
  const major = contentType.split('/')[0]?.trim().toLowerCase() ?? '';
  return major === 'image' || major === 'video' || major === 'audio' ? major : 'document';
}

/**
 * A number without Twilio's `whatsapp:` channel prefix, so it matches the same user's
 * number from other sources. Other channel addresses (messenger:, rcs:) stay whole: stripped,
 * they could pass for a WhatsApp number with the same digits.
 */
function address(text: string | null): string | null {
  return text === null ? null : readString(text.replace(WHATSAPP_PREFIX, ''));
}

/** `<AccountSid>:<business number>`: a number alone could be another Twilio account's sender. */
function tenantOf(account: string | null, businessAddress: string | null): string | null {
  const business = address(businessAddress);
  return account === null || business === null ? null : `${account}:${business}`;
}

/**
 * `63016 <text>`: ErrorCode with ErrorMessage, or the WhatsApp channel's own
 * ChannelStatusMessage (documented for failed WhatsApp deliveries); null when neither is sent.
 */
function errorOf(read: (name: SingletonName) => string | null): string | null {
  const parts = [read('ErrorCode'), read('ErrorMessage') ?? read('ChannelStatusMessage')];
  return parts.filter((part) => part !== null).join(' ') || null;
}
