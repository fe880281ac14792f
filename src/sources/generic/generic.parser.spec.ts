import { parseGenericBody } from './generic.parser.js';

describe('parseGenericBody', () => {
  const flat = {
    event: 'message.received',
    id: 'msg_001',
    timestamp: 1750031000,
    from: '16505551234',
    type: 'text',
    text: { body: 'hi' },
  };

  it('keys a flat message by its id and keeps the whole body as raw', () => {
    expect(parseGenericBody(flat)).toEqual([
      {
        key: 'generic:msg:msg_001',
        source: 'generic',
        kind: 'message',
        type: 'text',
        sender: '16505551234',
        userId: null,
        tenant: null,
        providerTimestamp: new Date(1750031000 * 1000),
        fromMe: false,
        authenticated: false,
        raw: flat,
      },
    ]);
  });

  it('falls back to messageId, as a string or a finite number', () => {
    const { id: _id, ...withoutId } = flat;
    expect(parseGenericBody({ ...withoutId, messageId: 'm-9' })[0]?.key).toBe('generic:msg:m-9');
    expect(parseGenericBody({ ...withoutId, messageId: 77 })[0]?.key).toBe('generic:msg:77');
    expect(parseGenericBody({ ...withoutId, id: 12 })[0]?.key).toBe('generic:msg:12');
  });

  it('keys a body without an id by the verified webhook-id when there is one, before any content hash', () => {
    const { id: _id, ...withoutId } = flat;
    expect(parseGenericBody(withoutId, 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W')[0]?.key).toBe('generic:delivery:msg_2KWPBgLlAfxdpx2AI54pPJ85f4W');
    expect(parseGenericBody(flat, 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W')[0]?.key).toBe('generic:msg:msg_001');
  });

  it('hashes from and timestamp when there is no id, so only an identical pair repeats', () => {
    const [first] = parseGenericBody({ from: '1', timestamp: 1750031000, text: { body: 'a' } });
    const [again] = parseGenericBody({ timestamp: 1750031000, from: '1', text: { body: 'b' } });
    const [later] = parseGenericBody({ from: '1', timestamp: 1750031001 });
    expect(first?.key).toMatch(/^generic:hash:[0-9a-f]{64}$/);
    expect(again?.key).toBe(first?.key);
    expect(later?.key).not.toBe(first?.key);
    expect(parseGenericBody({ from: '1' })).toHaveLength(1);
  });

  it('yields no event when nothing identifies it', () => {
    expect(parseGenericBody({ event: 'message.received', text: { body: 'hi' } })).toEqual([]);
    expect(parseGenericBody({ id: '', messageId: NaN, from: null })).toEqual([]);
  });

  it('makes status events of event names that mention status, keyed apart from the message', () => {
    const [status] = parseGenericBody({ event: 'message.STATUS', id: 'msg_001', status: 'Read' });
    expect(status).toMatchObject({ kind: 'status', type: 'message.STATUS', key: 'generic:status:msg_001:read' });
    expect(parseGenericBody({ event: 'status', id: 'msg_001' })[0]?.key).toBe('generic:status:msg_001');
  });

  it('takes type from type, then event, then unknown', () => {
    expect(parseGenericBody({ id: 'a', event: 'message.received' })[0]?.type).toBe('message.received');
    expect(parseGenericBody({ id: 'a' })[0]?.type).toBe('unknown');
  });

  it('reads seconds, milliseconds and ISO timestamps', () => {
    const at = (timestamp: unknown) => parseGenericBody({ id: 'a', timestamp })[0]?.providerTimestamp;
    expect(at(1750031000)).toEqual(new Date(1750031000000));
    expect(at(1750031000123)).toEqual(new Date(1750031000123));
    expect(at('2025-06-15T23:43:20.000Z')).toEqual(new Date('2025-06-15T23:43:20.000Z'));
    expect(at('not a date')).toBeNull();
  });
});
