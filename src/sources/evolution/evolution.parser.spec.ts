import { readFileSync } from 'node:fs';
import { receiptUpdateOf } from '../receipt-update.js';
import { evolutionEventName, parseEvolutionBody, readEvolutionStatus } from './evolution.parser.js';
import type { JsonObject } from '../shared/payload-values.js';

const APIKEY = 'B6D711FCDE4D4FD5936544120E713976';
const fixture = (name: string): JsonObject =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/evolution/${name}.json`, import.meta.url), 'utf8')) as JsonObject;
const FIXTURES = [
  'connection_update_open', 'messages_set_history', 'messages_update_delivery_ack', 'messages_update_read',
  'messages_update_server_ack', 'messages_upsert_from_me', 'messages_upsert_image_group',
  'messages_upsert_text_inbound', 'messages_upsert_text_inbound_duplicate', 'send_message',
];
const keysOf = (body: JsonObject, pathEvent?: string) => parseEvolutionBody(body, pathEvent).map((event) => event.key);
const body = (event: string | undefined, data: unknown, extra: JsonObject = {}): JsonObject =>
  ({ event, instance: 'loja-centro', data, date_time: '2025-06-15T23:40:05.201Z', apikey: APIKEY, ...extra });
const message = (id: string, key: JsonObject = {}, extra: JsonObject = {}) =>
  ({ key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id, ...key }, message: { conversation: 'oi' }, ...extra });

describe('evolutionEventName', () => {
  it.each([
    ['messages.upsert', 'messages.upsert'], ['MESSAGES_UPSERT', 'messages.upsert'], ['messages-upsert', 'messages.upsert'],
    ['/messages-upsert', 'messages.upsert'], ['GROUP_PARTICIPANTS_UPDATE', 'group-participants.update'],
    ['group-participants-update', 'group-participants.update'], ['typebot-change-status', 'typebot.change-status'],
    ['SEND_MESSAGE_UPDATE', 'send.message.update'], ['SOMETHING_NEW', 'something.new'],
  ])('reads %s as %s', (spelling, name) => {
    expect(evolutionEventName(spelling)).toBe(name);
  });

  it('takes the URL suffix only when the body names no event', () => {
    const data = message('P1');
    expect(keysOf(body(undefined, data), 'messages-upsert')).toEqual(['evolution:loja-centro:msg:P1']);
    expect(keysOf(body('MESSAGES_UPSERT', data))).toEqual(['evolution:loja-centro:msg:P1']);
    const [other] = parseEvolutionBody(body('connection.update', data), 'messages-upsert');
    expect(other).toMatchObject({ kind: 'other', type: 'connection.update' });
  });

  it('finds nothing without an event or an instance (the webhook answers 400)', () => {
    expect(parseEvolutionBody(body(undefined, message('A')))).toEqual([]);
    expect(parseEvolutionBody({ event: 'messages.upsert', data: message('A') })).toEqual([]);
  });
});

describe('parseEvolutionBody', () => {
  it('reads an inbound text into a message event scoped by the instance', () => {
    const payload = fixture('messages_upsert_text_inbound');
    expect(parseEvolutionBody(payload)).toEqual([{
      key: 'evolution:loja-centro:msg:A1B2C3D4E5F60718293A4B5C6D7E8F90', source: 'evolution', kind: 'message', type: 'text',
      sender: '5511987654321', userId: null, tenant: 'loja-centro', providerTimestamp: new Date(1750031000 * 1000),
      fromMe: false, authenticated: false,
      raw: { event: 'messages.upsert', instance: 'loja-centro', date_time: payload.date_time, sender: payload.sender, server_url: payload.server_url, data: payload.data },
    }]);
  });

  it.each(FIXTURES)('stores neither the apikey nor the destination of %s', (name) => {
    const events = parseEvolutionBody(fixture(name));
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(JSON.stringify(event.raw)).not.toContain(APIKEY);
      expect(event.raw).not.toHaveProperty('apikey');
      expect(event.raw).not.toHaveProperty('destination');
    }
  });

  it('gives a message one key whether it came as upsert, set, send.message or again', () => {
    const [inbound] = keysOf(fixture('messages_upsert_text_inbound'));
    expect(keysOf(fixture('messages_upsert_text_inbound_duplicate'))).toEqual([inbound]);
    expect(keysOf(fixture('messages_set_history'))).toContain(inbound);
    const [sent] = keysOf(fixture('send_message'));
    expect(sent).toBe('evolution:loja-centro:msg:3EB0C5A2F1D4B7E9A06F12');
    expect(keysOf(fixture('messages_upsert_from_me'))).toEqual([sent]);
    expect(parseEvolutionBody(fixture('send_message'))[0]).toMatchObject({ fromMe: true, sender: '5511987654321', type: 'text' });
    expect(keysOf(body('messages.upsert', message('X'), { instance: 'filial-2' }))).toEqual(['evolution:filial-2:msg:X']);
  });

  it('names the group member as sender and derives the type from the content or messageType', () => {
    expect(parseEvolutionBody(fixture('messages_upsert_image_group'))[0]).toMatchObject({ type: 'image', sender: '5511976543210', fromMe: false });
    const audio = message('AU', {}, { message: { base64: 'AAAA' }, messageType: 'audioMessage' });
    expect(parseEvolutionBody(body('messages.upsert', audio))[0]?.type).toBe('audio');
    const own = message('G2', { remoteJid: '120363041234567890@g.us', fromMe: true });
    expect(parseEvolutionBody(body('send.message', own))[0]?.sender).toBe('120363041234567890@g.us');
  });

  it('prefers the phone JID over a LID and keeps a lone LID whole', () => {
    const lid = { remoteJid: '207484138115245@lid', remoteJidAlt: '5511987654321@s.whatsapp.net' };
    expect(parseEvolutionBody(body('messages.upsert', message('L1', lid)))[0]?.sender).toBe('5511987654321');
    const alone = message('L2', { remoteJid: '207484138115245:12@lid' });
    expect(parseEvolutionBody(body('messages.upsert', alone))[0]?.sender).toBe('207484138115245@lid');
  });

  it('parses a 2,000-message messages.set in one pass, each raw holding its own message', () => {
    const history = Array.from({ length: 2000 }, (_, i) => message(`H${i}`, {}, { messageTimestamp: 1749990000 + i }));
    const started = performance.now();
    const events = parseEvolutionBody(body('MESSAGES_SET', history));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(events).toHaveLength(2000);
    expect(new Set(events.map((event) => event.key)).size).toBe(2000);
    expect(events[1999]?.raw.data).toBe(history[1999]);
  });
});

describe('messages.update', () => {
  const sent = 'evolution:loja-centro:msg:3EB0C5A2F1D4B7E9A06F12';

  it('keys each status of one message apart, by its WhatsApp id, never Evolution’s database id', () => {
    const names = ['messages_update_server_ack', 'messages_update_delivery_ack', 'messages_update_read'];
    const events = names.flatMap((name) => parseEvolutionBody(fixture(name)));
    expect(events.map((event) => [event.key, event.type, event.kind])).toEqual([
      [`${sent}:SERVER_ACK`, 'server_ack', 'status'], [`${sent}:DELIVERY_ACK`, 'delivery_ack', 'status'], [`${sent}:READ`, 'read', 'status'],
    ]);
    expect(events.map(receiptUpdateOf)).toMatchObject(['sent', 'delivered', 'read'].map((status) =>
      ({ wamid: '3EB0C5A2F1D4B7E9A06F12', source: 'evolution', recipient: '5511987654321', status })));
  });

  it('names numeric Baileys codes and reads v1’s spread key and timestamp', () => {
    const v1 = { id: 'V1', remoteJid: '5511987654321@s.whatsapp.net', fromMe: true, status: 3, datetime: 1750031010123, owner: 'loja-centro' };
    const [event] = parseEvolutionBody(body('messages.update', [v1]));
    expect(event).toMatchObject({ key: 'evolution:loja-centro:msg:V1:DELIVERY_ACK', type: 'delivery_ack', providerTimestamp: new Date(1750031010123) });
  });

  it.each([
    ['SERVER_ACK', 'sent'], ['DELIVERY_ACK', 'delivered'], ['READ', 'read'], ['PLAYED', 'played'], ['ERROR', 'failed'],
    ['PENDING', null], ['DELETED', null], [0, 'failed'], [2, 'sent'], [5, 'played'], ['DELIVERED', 'delivered'], ['FAILED', 'failed'],
  ])('puts %s on the ladder as %s', (status, ladder) => {
    const [event] = parseEvolutionBody(body('messages.update', { keyId: 'S1', fromMe: true, status, messageId: 'cmdbid' }));
    expect(readEvolutionStatus(event!)).toEqual({ messageId: 'S1', status: ladder, error: null });
  });

  it('reads a receipt of an inbound message as no outbound progress', () => {
    const [event] = parseEvolutionBody(body('messages.update', { keyId: 'IN1', fromMe: false, status: 'READ' }));
    expect(readEvolutionStatus(event!)).toEqual({ messageId: 'IN1', status: null, error: null });
  });
});

describe('events without an id of their own', () => {
  it('keys identical redeliveries alike and distinct emissions apart', () => {
    const open = fixture('connection_update_open');
    const [event] = parseEvolutionBody(open);
    expect(event).toMatchObject({ kind: 'other', type: 'connection.update', sender: null, tenant: 'loja-centro' });
    expect(event?.key).toMatch(/^evolution:loja-centro:other:[0-9a-f]{64}$/);
    expect(keysOf({ ...open, apikey: 'rotated', destination: 'https://elsewhere' })).toEqual([event?.key]);
    expect(keysOf({ ...open, date_time: '2025-06-15T23:41:05.201Z' })).not.toEqual([event?.key]);
    expect(keysOf({ ...open, data: { ...(open.data as JsonObject), state: 'close' } })).not.toEqual([event?.key]);
    expect(keysOf({ ...open, instance: 'filial-2' })).not.toEqual([event?.key]);
  });

  it('never keys edits and deletes by the id of the message they change', () => {
    const edited = { key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: true, id: 'ORIG' }, type: 'MESSAGE_EDIT', editedMessage: {} };
    for (const name of ['messages.edited', 'send.message.update', 'messages.delete']) {
      expect(parseEvolutionBody(body(name, edited))[0]).toMatchObject({ kind: 'other', type: name });
    }
    expect(parseEvolutionBody(body('messages.update', { keyId: 'ORIG', fromMe: true }))[0]?.kind).toBe('other');
    expect(parseEvolutionBody(body('LOGOUT_INSTANCE', null))[0]).toMatchObject({ type: 'logout.instance', raw: { data: null } });
  });
});

describe('Evolution strings taken from the body', () => {
  // Issue 20: `/^\/+|\/+$/g` retried `\/+$` from every slash of an inner run (100,000 slashes: about 10 s).
  it('normalise an event name of 100,000 slashes between letters in linear time', () => {
    const name = `x${'/'.repeat(100_000)}x`;
    const started = performance.now();
    expect(evolutionEventName(name)).toBe(name);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ['event', body('x'.repeat(129), {}), undefined, /^event is 129 characters long; at most 128 are accepted$/],
    ['URL event segment', body(undefined, {}), '/'.repeat(30_000), /URL's event segment is 30000 characters long; at most 128/],
    ['instance', body('messages.upsert', message('A'), { instance: 'i'.repeat(129) }), undefined, /^instance is 129 characters long; at most 128/],
    ['message id', body('messages.upsert', message('m'.repeat(513))), undefined, /^data\.key\.id is 513 characters long; at most 512/],
    ['status id', body('messages.update', { keyId: 'k'.repeat(513), status: 'READ' }), undefined, /^data\.keyId is 513 characters long; at most 512/],
    ['status', body('messages.update', { keyId: 'A', status: 'S'.repeat(65) }), undefined, /^data\.status is 65 characters long; at most 64/],
  ])('refuse an over-long %s with a 400 naming it and the limit', (_field, sent, pathEvent, reason) => {
    expect(() => parseEvolutionBody(sent, pathEvent)).toThrow(reason);
  });

  it('take every string at its limit', () => {
    const sent = body('messages.upsert', message('m'.repeat(512)), { instance: 'i'.repeat(128) });
    expect(parseEvolutionBody(sent)[0]).toMatchObject({ kind: 'message', tenant: 'i'.repeat(128) });
    expect(parseEvolutionBody(body('messages.update', { keyId: 'A', status: 'S'.repeat(64) }))[0]).toMatchObject({ kind: 'status' });
  });
});
