import { receiptUpdateOf } from '../receipt-update.js';
import { parseWasenderBody } from './wasender.parser.js';

const SESSION_ID = 'session-api-key-must-not-be-stored';

function inbound(id: string, extra: Record<string, unknown> = {}) {
  return {
    key: { id, fromMe: false, remoteJid: '16505551234@s.whatsapp.net', senderPn: '16505551234@s.whatsapp.net', cleanedSenderPn: '16505551234' },
    messageBody: 'hello',
    message: { conversation: 'hello' },
    ...extra,
  };
}

function body(event: string, data: unknown, timestamp: unknown = 1750031000) {
  return { event, sessionId: SESSION_ID, data, timestamp };
}

describe('parseWasenderBody', () => {
  describe('messages.received and messages.upsert', () => {
    it('reads data.messages as an object, keyed by key.id, without the sessionId', () => {
      const message = inbound('3EB0A1');
      const [event, ...rest] = parseWasenderBody(body('messages.received', { messages: message }));
      expect(rest).toHaveLength(0);
      expect(event).toEqual({
        key: 'wasender:msg:3EB0A1',
        source: 'wasender',
        kind: 'message',
        type: 'text',
        sender: '16505551234',
        userId: null,
        tenant: null,
        providerTimestamp: new Date(1750031000 * 1000),
        fromMe: false,
        authenticated: false,
        raw: { event: 'messages.received', timestamp: 1750031000, message },
      });
      expect(JSON.stringify(event?.raw)).not.toContain(SESSION_ID);
    });

    it('reads data.messages as an array, one event per message', () => {
      const events = parseWasenderBody(body('messages.upsert', { messages: [inbound('A'), inbound('B'), { key: {} }] }));
      expect(events.map((e) => e.key)).toEqual(['wasender:msg:A', 'wasender:msg:B']);
    });

    it('gives the same message the same key whichever event delivered it', () => {
      const received = parseWasenderBody(body('messages.received', { messages: inbound('SAME') }));
      const upserted = parseWasenderBody(body('messages.upsert', { messages: [inbound('SAME')] }, 1750031999000));
      expect(upserted[0]?.key).toBe(received[0]?.key);
      for (const scoped of ['messages-personal.received', 'messages-group.received', 'messages-newsletter.received']) {
        const [event] = parseWasenderBody(body(scoped, { messages: inbound('SAME') }));
        expect(event).toMatchObject({ key: received[0]?.key, kind: 'message' });
      }
    });

    it('marks the account’s own messages with fromMe and derives the type from the content', () => {
      const own = inbound('OWN', { key: { id: 'OWN', fromMe: true, remoteJid: '44700900123:12@s.whatsapp.net' }, message: { messageContextInfo: {}, imageMessage: { caption: 'x' } } });
      const [event] = parseWasenderBody(body('messages.upsert', { messages: [own] }));
      expect(event).toMatchObject({ fromMe: true, type: 'image', sender: '44700900123' });
    });

    it('prefers messageTimestamp and accepts milliseconds', () => {
      const [withOwn] = parseWasenderBody(body('messages.upsert', { messages: [inbound('T', { messageTimestamp: 1750031005 })] }));
      const [withMillis] = parseWasenderBody(body('messages.received', { messages: inbound('M') }, 1750031010123));
      expect(withOwn?.providerTimestamp).toEqual(new Date(1750031005000));
      expect(withMillis?.providerTimestamp).toEqual(new Date(1750031010123));
    });
  });

  describe('messages.update', () => {
    const update = (id: string, status: unknown) => ({ key: { id, fromMe: true, remoteJid: '16505551234@s.whatsapp.net' }, update: { status } });

    it('names the numeric status and puts it in the key', () => {
      const [event] = parseWasenderBody(body('messages.update', update('OUT1', 3), 1750031010123));
      expect(event).toMatchObject({
        key: 'wasender:status:OUT1:delivered', kind: 'status', type: 'delivered', sender: '16505551234', fromMe: true,
        providerTimestamp: new Date(1750031010123),
        raw: { event: 'messages.update', timestamp: 1750031010123, update: update('OUT1', 3) },
      });
    });

    it('reads an array of updates and maps every documented code', () => {
      const events = parseWasenderBody(body('messages.update', [0, 1, 2, 3, 4, 5].map((code) => update('X', code))));
      expect(events.map((e) => e.type)).toEqual(['error', 'pending', 'sent', 'delivered', 'read', 'played']);
      expect(new Set(events.map((e) => e.key)).size).toBe(6);
    });

    it('skips updates without an id or a status', () => {
      const events = parseWasenderBody(body('messages.update', [update('', 3), { key: { id: 'N' }, update: { starred: true } }, update('S', 4)]));
      expect(events.map((e) => e.key)).toEqual(['wasender:status:S:read']);
    });
  });

  describe('message-receipt.update', () => {
    const receiptItem = (receipt: Record<string, unknown>) => ({
      message: { key: { remoteJid: 'g1@g.us', id: 'GMSG', fromMe: true, participant: 'p@s.whatsapp.net' }, receipt },
    });

    it('keys each receipt by stage and participant', () => {
      const events = parseWasenderBody(body('message-receipt.update', [
        receiptItem({ userJid: '111@s.whatsapp.net', receiptTimestamp: 1750031000 }),
        receiptItem({ userJid: '111@s.whatsapp.net', readTimestamp: 1750031100 }),
        receiptItem({ userJid: '222@s.whatsapp.net', readTimestamp: 1750031200, receiptTimestamp: 1750031000 }),
        receiptItem({ userJid: '222@s.whatsapp.net', playedTimestamp: 1750031300 }),
      ]));
      expect(events.map((e) => [e.key, e.kind, e.type, e.sender])).toEqual([
        ['wasender:receipt:GMSG:delivered:111@s.whatsapp.net', 'status', 'delivered', '111'],
        ['wasender:receipt:GMSG:read:111@s.whatsapp.net', 'status', 'read', '111'],
        ['wasender:receipt:GMSG:read:222@s.whatsapp.net', 'status', 'read', '222'],
        ['wasender:receipt:GMSG:played:222@s.whatsapp.net', 'status', 'played', '222'],
      ]);
      expect(events[1]?.providerTimestamp).toEqual(new Date(1750031100000));
    });

    it('also accepts data.key and data.receipt, and skips receipts without a stage', () => {
      const events = parseWasenderBody(body('message-receipt.update', [
        { key: { id: 'FLAT' }, receipt: { userJid: '333@s.whatsapp.net', readTimestamp: 1 } },
        { key: { id: 'NOSTAGE' }, receipt: { userJid: '333@s.whatsapp.net' } },
      ]));
      expect(events.map((e) => e.key)).toEqual(['wasender:receipt:FLAT:read:333@s.whatsapp.net']);
    });

    it('reads a stage named by status (WASender SDK: { userJid, status, t }) as the stage its timestamp would name', () => {
      const events = parseWasenderBody(body('message-receipt.update', [
        { key: { id: 'SDK', fromMe: true }, receipt: { userJid: '111@s.whatsapp.net', status: 'read', t: 1750031100 } },
        { key: { id: 'SDK', fromMe: true }, receipt: { userJid: '222@s.whatsapp.net', status: 'DELIVERED' } },
        { key: { id: 'SDK', fromMe: true }, receipt: { userJid: '333@s.whatsapp.net', status: 'played', t: 1750031300 } },
        { key: { id: 'SDK', fromMe: true }, receipt: { userJid: '444@s.whatsapp.net', status: 'sent', t: 1750031000 } },
      ]));
      expect(events.map((e) => [e.key, e.kind, e.type, e.sender, e.fromMe, e.providerTimestamp])).toEqual([
        ['wasender:receipt:SDK:read:111@s.whatsapp.net', 'status', 'read', '111', true, new Date(1750031100000)],
        ['wasender:receipt:SDK:delivered:222@s.whatsapp.net', 'status', 'delivered', '222', true, new Date(1750031000000)],
        ['wasender:receipt:SDK:played:333@s.whatsapp.net', 'status', 'played', '333', true, new Date(1750031300000)],
      ]);
      expect(receiptUpdateOf(events[0]!)).toEqual({
        wamid: 'SDK', source: 'wasender', tenant: '', recipient: '111', status: 'read', at: new Date(1750031100000), error: null,
      });
      // The same receipt in Baileys' shape has the same key: one read, whichever shape carried it.
      const [baileys] = parseWasenderBody(body('message-receipt.update', { key: { id: 'SDK' }, receipt: { userJid: '111@s.whatsapp.net', readTimestamp: 1 } }));
      expect(baileys?.key).toBe(events[0]?.key);
    });
  });

  describe('known events in a shape the parser does not read', () => {
    it.each([
      ['message-receipt.update', [{ key: { id: 'X' }, receipt: { userJid: '1@s.whatsapp.net', status: 'sent' } }, { key: { id: 'Y' }, receipt: {} }]],
      ['messages.update', [{ key: { id: 'X' }, update: { starred: true } }, { key: {}, update: { status: 3 } }]],
      ['messages.upsert', { messages: [{ id: 'no-key' }] }],
      ['messages-group.received', {}],
    ])('become one other event for %s, keyed by its content, without the sessionId', (event, data) => {
      const events = parseWasenderBody(body(event, data));
      expect(events).toEqual([expect.objectContaining({ source: 'wasender', kind: 'other', type: event, sender: null, fromMe: false })]);
      expect(events[0]?.key).toMatch(/^wasender:other:[0-9a-f]{64}$/);
      expect(events[0]?.raw).toEqual({ event, data, timestamp: 1750031000 });
      expect(events[0]?.providerTimestamp).toEqual(new Date(1750031000 * 1000));
      expect(JSON.stringify(events)).not.toContain(SESSION_ID);
      expect(parseWasenderBody({ ...body(event, data), sessionId: 'another-session' })[0]?.key).toBe(events[0]?.key);
    });

    it('give the recognised items of a batch their own keys and store nothing else', () => {
      const events = parseWasenderBody(body('messages.update', [{ key: { id: 'N' }, update: { starred: true } }, { key: { id: 'S' }, update: { status: 4 } }]));
      expect(events.map((e) => e.key)).toEqual(['wasender:status:S:read']);
    });
  });

  describe('other events', () => {
    it('become one event typed by the event name, keyed by a hash of event, data and timestamp', () => {
      const [event] = parseWasenderBody(body('session.status', { status: 'connected' }));
      expect(event).toMatchObject({ kind: 'other', type: 'session.status', sender: null, fromMe: false });
      expect(event?.key).toMatch(/^wasender:other:[0-9a-f]{64}$/);
      expect(event?.raw).toEqual({ event: 'session.status', data: { status: 'connected' }, timestamp: 1750031000 });
    });

    it('keep identical redeliveries on one key and changes on another, whatever the sessionId', () => {
      const keyOf = (b: Record<string, unknown>) => parseWasenderBody(b)[0]?.key;
      const chats = body('chats.upsert', [{ id: '1234', unreadCount: 2 }]);
      expect(keyOf({ ...chats, sessionId: 'another' })).toBe(keyOf(chats));
      expect(keyOf(body('chats.upsert', [{ id: '1234', unreadCount: 3 }]))).not.toBe(keyOf(chats));
      expect(keyOf(body('messages.reaction', [{ id: '1234', unreadCount: 2 }]))).not.toBe(keyOf(chats));
    });
  });
});
