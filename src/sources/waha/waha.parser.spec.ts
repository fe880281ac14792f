import { readFileSync } from 'node:fs';
import { receiptUpdateOf } from '../receipt-update.js';
import type { NormalizedEvent } from '../shared/normalized-event.js';
import type { JsonObject } from '../shared/payload-values.js';
import { parseWahaBody, readWahaStatus } from './waha.parser.js';

const INBOUND = 'false_22222222222@c.us_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const OUTBOUND = 'true_22222222222@c.us_CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC';

function fixture(name: string): JsonObject {
  return JSON.parse(readFileSync(new URL(`../../../test/fixtures/waha/${name}.json`, import.meta.url), 'utf8')) as JsonObject;
}

function only(body: JsonObject): NormalizedEvent {
  const events = parseWahaBody(body);
  expect(events).toHaveLength(1);
  return events[0]!;
}

/** A fixture with some envelope or payload fields replaced. */
function variant(name: string, envelope: JsonObject, payload: JsonObject = {}): JsonObject {
  const body = fixture(name);
  return { ...body, ...envelope, payload: { ...(body.payload as JsonObject), ...payload } };
}

describe('parseWahaBody', () => {
  describe('message and message.any', () => {
    it('reads a received text message, scoped by session, without metadata or environment', () => {
      const body = fixture('message_text');
      expect(only(body)).toEqual({
        key: `waha:default:msg:${INBOUND}`,
        source: 'waha',
        kind: 'message',
        type: 'text',
        sender: '22222222222',
        userId: null,
        tenant: 'default',
        providerTimestamp: new Date(1763396578 * 1000),
        fromMe: false,
        authenticated: false,
        raw: { id: body.id, timestamp: body.timestamp, event: 'message', session: 'default', me: body.me, engine: 'WEBJS', payload: body.payload },
      });
    });

    it('gives message and message.any of the same message one key, though their envelopes differ', () => {
      const message = only(fixture('message_text'));
      const any = only(fixture('message_any_text'));
      expect(fixture('message_any_text').id).not.toBe(fixture('message_text').id);
      expect(any).toMatchObject({ key: message.key, kind: 'message', type: 'text', sender: '22222222222' });
    });

    it('keeps the same message id of two sessions apart', () => {
      const other = only(variant('message_text', { session: 'sales' }));
      expect(other).toMatchObject({ key: `waha:sales:msg:${INBOUND}`, tenant: 'sales' });
    });

    it('names the account’s own message by the chat it went to', () => {
      expect(only(fixture('message_from_me'))).toMatchObject({
        key: `waha:default:msg:${OUTBOUND}`, kind: 'message', type: 'text', sender: '22222222222', fromMe: true,
      });
    });

    it('takes a media type from the mimetype when the engine data says nothing', () => {
      expect(only(fixture('message_media'))).toMatchObject({ type: 'image', sender: '22222222222', fromMe: false });
    });

    it('names the author of a received group message, and skips the account’s own ids', () => {
      const group = { from: '120363000000000000@g.us', participant: '33333333333@c.us' };
      expect(only(variant('message_text', {}, group)).sender).toBe('33333333333');
      const toSelf = { fromMe: true, from: '11111111111@c.us', to: '11111111111:3@s.whatsapp.net' };
      expect(only(variant('message_text', {}, toSelf)).sender).toBeNull();
    });
  });

  describe('message.ack', () => {
    const ACKS = [['sent', '1', 'sent'], ['delivered', '2', 'delivered'], ['read', '3', 'read'], ['error', '-1', 'failed']];

    it.each(ACKS)('keys %s by message and ack number, timed by the envelope', (name, ack, type) => {
      const body = fixture(`message_ack_${name}`);
      expect(only(body)).toMatchObject({
        key: `waha:default:ack:${OUTBOUND}:${ack}`, kind: 'status', type, sender: '22222222222', tenant: 'default', fromMe: true,
        providerTimestamp: new Date(body.timestamp as number),
      });
    });

    it('gives every ack level its own key and a redelivery the same one', () => {
      const keys = ACKS.map(([name]) => only(fixture(`message_ack_${name!}`)).key);
      expect(new Set(keys).size).toBe(ACKS.length);
      expect(only(fixture('message_ack_read')).key).toBe(keys[2]);
      expect(keys).not.toContain(only(fixture('message_from_me')).key);
    });

    it('maps the acks onto the status ladder', () => {
      const update = (name: string) => receiptUpdateOf(only(fixture(`message_ack_${name}`)));
      expect(update('sent')).toMatchObject({ wamid: OUTBOUND, source: 'waha', recipient: '22222222222', status: 'sent' });
      expect(update('delivered')?.status).toBe('delivered');
      expect(update('read')).toMatchObject({ status: 'read', at: new Date(1763396815907) });
      expect(update('error')).toMatchObject({ status: 'failed', error: null });
      const ack = (payload: JsonObject) => readWahaStatus(only(variant('message_ack_read', {}, payload)));
      expect(ack({ ack: 4, ackName: 'PLAYED' })).toEqual({ messageId: OUTBOUND, status: 'played', error: null });
      expect(ack({ ack: 0, ackName: 'PENDING' }).status).toBeNull();
      expect(ack({ ack: undefined, ackName: 'device' }).status).toBe('delivered');
      expect(ack({ ack: 7, ackName: 'SOMETHING' })).toMatchObject({ messageId: OUTBOUND, status: null });
    });

    it('keeps every reader’s group ack apart and updates the message they read', () => {
      const reader = (participant: string) =>
        only(variant('message_ack_read', { event: 'message.ack.group' }, { id: `true_120363000000000000@g.us_CCCC_${participant}`, from: '120363000000000000@g.us', participant }));
      const [first, second] = [reader('9999@lid'), reader('33333333333@c.us')];
      expect(first.key).not.toBe(second.key);
      expect(second).toMatchObject({ kind: 'status', sender: '33333333333' });
      expect(readWahaStatus(first)).toEqual({ messageId: 'true_120363000000000000@g.us_CCCC', status: 'read', error: null });
    });

    it('takes an ack without a usable id or step as another event', () => {
      expect(only(variant('message_ack_read', {}, { id: null })).kind).toBe('other');
      expect(only(variant('message_ack_read', {}, { ack: null, ackName: 'UNKNOWN' })).kind).toBe('other');
    });
  });

  describe('other events', () => {
    it('keys session.status by its content, which a redelivery repeats and a later status does not', () => {
      const event = only(fixture('session_status'));
      expect(event).toMatchObject({ kind: 'other', type: 'session.status', sender: null, tenant: 'default', fromMe: false });
      expect(event.key).toMatch(/^waha:default:other:[0-9a-f]{64}$/);
      expect(only(fixture('session_status')).key).toBe(event.key);
      const later = variant('session_status', { id: 'evt_01kab9zz8y7x6w5v4t3s2r1q0p', timestamp: 1763400000000 });
      expect(only(later).key).not.toBe(event.key);
      expect(only({ ...fixture('session_status'), me: null, environment: {} }).key).toBe(event.key);
    });

    it('reads the other party and time of a reaction', () => {
      expect(only(fixture('message_reaction'))).toMatchObject({
        kind: 'other', type: 'message.reaction', sender: '22222222222', fromMe: false, providerTimestamp: new Date(1763396830853),
      });
    });

    it('takes a message without an id as another event rather than refusing it', () => {
      expect(only(variant('message_text', {}, { id: '' }))).toMatchObject({ kind: 'other', type: 'message' });
      expect(only({ ...fixture('message_text'), payload: 'not an object' })).toMatchObject({ kind: 'other', sender: null });
    });

    it('keys bodies from WAHA versions without an envelope id by event and payload', () => {
      const old = (status: string) => ({ event: 'session.status', session: 'default', payload: { name: 'default', status } });
      expect(only(old('WORKING')).key).toBe(only(old('WORKING')).key);
      expect(only(old('WORKING')).key).not.toBe(only(old('FAILED')).key);
    });
  });

  it('finds nothing in a body without a session or an event name', () => {
    const body = fixture('message_text');
    for (const broken of [{ session: undefined }, { session: '  ' }, { event: null }, { event: 42 }]) {
      expect(parseWahaBody({ ...body, ...broken })).toEqual([]);
    }
  });
});
