import { readFileSync } from 'node:fs';
import { receiptUpdateOf } from '../receipt-update.js';
import type { NormalizedEvent } from '../shared/normalized-event.js';
import { twilioParams } from './twilio-params.js';
import { parseTwilioBody, readTwilioStatus } from './twilio.parser.js';

const ACCOUNT = 'AC99128234bc06aae0824556adf8c6293f';
const OUTBOUND = 'SM2e1dc2acac3ecc979e5daa9706548be1';
const BUSINESS = '+14155550100';
const USER = '+14155550123';

/** A fixture's form body decoded as the HTTP layer hands it over: a repeated name becomes a list. */
function form(name: string): Record<string, string | string[]> {
  const text = readFileSync(new URL(`../../../test/fixtures/twilio/${name}.txt`, import.meta.url), 'utf8').trim();
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const seen = params[key];
    params[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}

/** Parsed as the source does: from the canonical parameters the signature is checked over. */
const parse = (params: Record<string, unknown>) => parseTwilioBody(twilioParams(params));

function only(params: Record<string, unknown>): NormalizedEvent {
  const events = parse(params);
  expect(events).toHaveLength(1);
  return events[0]!;
}

describe('parseTwilioBody', () => {
  it('reads an inbound text message: keyed by MessageSid, sender From, tenant AccountSid + To', () => {
    const params = form('inbound_text');
    expect(only(params)).toEqual({
      key: 'twilio:msg:SM785e4efec1a40db18dae69ffd4dd1db1',
      source: 'twilio',
      kind: 'message',
      type: 'text',
      sender: USER,
      userId: null,
      tenant: `${ACCOUNT}:${BUSINESS}`,
      providerTimestamp: null,
      fromMe: false,
      authenticated: false,
      raw: params,
    });
  });

  it('reads an inbound image and keeps the media fields in raw', () => {
    const event = only(form('inbound_image'));
    expect(event).toMatchObject({ key: 'twilio:msg:MM0276fb3450d4746d426ba7d8e8f40c70', kind: 'message', type: 'image', sender: USER });
    expect(event.raw).toMatchObject({ NumMedia: '1', MediaContentType0: 'image/jpeg', MediaUrl0: expect.stringMatching(/^https:\/\/api\.twilio\.com\/2010-04-01\/Accounts\/AC/) });
  });

  it.each([
    ['status_sent', 'sent'],
    ['status_delivered', 'delivered'],
    ['status_read', 'read'],
    ['status_failed', 'failed'],
    ['status_undelivered', 'undelivered'],
  ])('reads %s as a status of the outbound message, sender To, tenant AccountSid + From', (fixture, status) => {
    const params = form(fixture);
    expect(only(params)).toEqual({
      key: `twilio:status:${OUTBOUND}:${status}`,
      source: 'twilio',
      kind: 'status',
      type: status,
      sender: USER,
      userId: null,
      tenant: `${ACCOUNT}:${BUSINESS}`,
      providerTimestamp: null,
      fromMe: false,
      authenticated: false,
      raw: params,
    });
  });

  it('gives each step of one outbound message its own key, and a retried step the same one', () => {
    const keys = ['status_sent', 'status_delivered', 'status_read', 'status_failed'].map((name) => only(form(name)).key);
    expect(new Set(keys).size).toBe(4);
    expect(only(form('status_read')).key).toBe(only(form('status_read')).key);
  });

  it('tells inbound from status by MessageStatus first, then SmsStatus', () => {
    const base = { MessageSid: 'SM11111111111111111111111111111111', AccountSid: ACCOUNT, From: `whatsapp:${USER}`, To: `whatsapp:${BUSINESS}` };
    expect(only({ ...base, SmsStatus: 'received' })).toMatchObject({ key: 'twilio:msg:SM11111111111111111111111111111111', kind: 'message' });
    expect(only({ ...base, MessageStatus: 'Received', SmsStatus: 'received' })).toMatchObject({ key: 'twilio:msg:SM11111111111111111111111111111111' });
    expect(only(base)).toMatchObject({ key: 'twilio:msg:SM11111111111111111111111111111111', kind: 'message' });
    expect(only({ ...base, MessageStatus: 'DELIVERED', SmsStatus: 'received' })).toMatchObject({ key: 'twilio:status:SM11111111111111111111111111111111:delivered', type: 'delivered' });
    expect(only({ ...base, SmsStatus: 'sent' })).toMatchObject({ key: 'twilio:status:SM11111111111111111111111111111111:sent', kind: 'status' });
    expect(only({ ...base, MessageStatus: 'queued' })).toMatchObject({ kind: 'status', type: 'queued' });
  });

  it('falls back to SmsSid, then SmsMessageSid; no sid at all is no event', () => {
    expect(only({ SmsSid: 'SM22222222222222222222222222222222', SmsMessageSid: 'SM22222222222222222222222222222222', SmsStatus: 'received' }).key).toBe('twilio:msg:SM22222222222222222222222222222222');
    expect(() => parse({ SmsSid: 'SM22222222222222222222222222222222', SmsMessageSid: 'SM33333333333333333333333333333333' })).toThrow('name different messages');
    expect(only({ SmsMessageSid: 'SM33333333333333333333333333333333', SmsStatus: 'received' }).key).toBe('twilio:msg:SM33333333333333333333333333333333');
    expect(only({ MessageSid: ' ', SmsSid: 'SM22222222222222222222222222222222', MessageStatus: 'sent' }).key).toBe('twilio:status:SM22222222222222222222222222222222:sent');
    expect(parse({ Body: 'hello', SmsStatus: 'received' })).toEqual([]);
    expect(parse({})).toEqual([]);
  });

  it('never sees a repeated single-valued field: the parameters refuse it before anything is read', () => {
    expect(() => parse({ MessageSid: ['SM11111111111111111111111111111111', 'SM99999999999999999999999999999999'], SmsSid: 'SM11111111111111111111111111111111', SmsStatus: 'received' })).toThrow('MessageSid is repeated: Twilio sends it once');
  });

  it('reads a delivered callback with its statuses sent twice as nothing, never as an inbound message', () => {
    const tampered = { ...form('status_delivered'), MessageStatus: ['delivered', 'delivered'], SmsStatus: ['delivered', 'delivered'] };
    expect(() => parse(tampered)).toThrow('MessageStatus is repeated');
  });

  it('keeps a repeated parameter that may repeat as its distinct values, as signed', () => {
    const event = only({ MessageSid: OUTBOUND, SmsStatus: 'received', Tag: ['b', 'a', 'b'], Other: ['x', 'x'] });
    expect(event.raw).toMatchObject({ Tag: ['a', 'b'], Other: 'x' });
  });

  it('derives the type from the media or location when Twilio sends no MessageType', () => {
    const type = (extra: Record<string, string>) => only({ MessageSid: 'SM11111111111111111111111111111111', SmsStatus: 'received', ...extra }).type;
    expect(type({ NumMedia: '0', Body: 'hi' })).toBe('text');
    expect(type({ NumMedia: '1', MediaContentType0: 'video/mp4' })).toBe('video');
    expect(type({ NumMedia: '1', MediaContentType0: 'audio/ogg' })).toBe('audio');
    expect(type({ NumMedia: '1', MediaContentType0: 'application/pdf' })).toBe('document');
    expect(type({ NumMedia: '1' })).toBe('media');
    expect(type({ Latitude: '51.51', Longitude: '-0.21' })).toBe('location');
    expect(type({ MessageType: 'Interactive', NumMedia: '1', MediaContentType0: 'image/png' })).toBe('interactive');
  });

  it('strips only the whatsapp: prefix and leaves the tenant null without an AccountSid or business number', () => {
    expect(only({ MessageSid: 'SM11111111111111111111111111111111', From: 'WhatsApp:+447700900123', To: 'whatsapp:+14155550100' })).toMatchObject({ sender: '+447700900123', tenant: null });
    expect(only({ MessageSid: 'SM11111111111111111111111111111111', From: 'messenger:123', AccountSid: ACCOUNT })).toMatchObject({ sender: 'messenger:123', tenant: null });
    expect(only({ MessageSid: 'SM11111111111111111111111111111111', From: 'whatsapp:', AccountSid: ACCOUNT, To: '+14155550100' })).toMatchObject({ sender: null, tenant: `${ACCOUNT}:+14155550100` });
  });
});

describe('readTwilioStatus', () => {
  it.each([
    ['status_sent', 'sent', null],
    ['status_delivered', 'delivered', null],
    ['status_read', 'read', null],
    ['status_failed', 'failed', '63016'],
    ['status_undelivered', 'failed', '63024'],
  ])('reads %s onto the ladder', (fixture, status, error) => {
    const event = only(form(fixture));
    expect(readTwilioStatus(event)).toEqual({ messageId: OUTBOUND, status, error });
    expect(receiptUpdateOf(event)).toMatchObject({ wamid: OUTBOUND, source: 'twilio', recipient: USER, status, error, at: null });
  });

  it.each(['queued', 'accepted', 'scheduled', 'sending', 'canceled', 'receiving', 'partially_delivered', 'constructor', 'hasownproperty'])(
    'leaves %s off the ladder',
    (status) => {
      const event = only({ MessageSid: 'SM11111111111111111111111111111111', MessageStatus: status });
      expect(readTwilioStatus(event)).toEqual({ messageId: 'SM11111111111111111111111111111111', status: null, error: null });
      expect(receiptUpdateOf(event)).toBeNull();
    },
  );

  it('joins ErrorCode with ErrorMessage, or with the channel’s ChannelStatusMessage', () => {
    const failed = (extra: Record<string, string>) => readTwilioStatus(only({ MessageSid: 'SM11111111111111111111111111111111', MessageStatus: 'failed', ...extra })).error;
    expect(failed({ ErrorCode: '63016', ErrorMessage: 'Outside messaging window' })).toBe('63016 Outside messaging window');
    expect(failed({ ErrorCode: '63024', ChannelStatusMessage: 'Invalid message recipient' })).toBe('63024 Invalid message recipient');
    expect(failed({ ErrorMessage: 'no code' })).toBe('no code');
    expect(failed({})).toBeNull();
  });

  it('never turns an inbound message into a receipt update', () => {
    expect(receiptUpdateOf(only(form('inbound_text')))).toBeNull();
  });
});
