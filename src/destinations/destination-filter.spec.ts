import type { ForwardedEvent } from '../outbound/forward-request.js';
import type { DestinationFilter } from './destination.js';
import { matchesFilter, readFilter } from './destination-filter.js';
import { parseDestinations } from './destinations-file.js';

/** A Meta text message as the forward step sends it. */
const message: ForwardedEvent = {
  id: 'meta:msg:wamid.HBgL',
  provider: 'meta',
  kind: 'message',
  type: 'text',
  from: '5511999990000',
  fromUserId: null,
  tenant: '106540352242922',
  fromMe: false,
  authenticated: true,
  timestamp: '2025-01-01T00:00:00.000Z',
  receivedAt: '2025-01-01T00:00:01.000Z',
  replay: 0,
  payload: {
    field: 'messages',
    metadata: { phone_number_id: '106540352242922', display_phone_number: '15550000000' },
    message: { type: 'text', text: { body: 'hi' }, timestamp: '1735689600' },
    entries: [{ id: 'e1', tags: ['vip', 'new'] }, { id: 'e2', tags: [], count: 3 }],
    matrix: [[1, 2], [3]],
  },
};
const status: ForwardedEvent = { ...message, id: 'meta:status:x', kind: 'status', type: 'read', tenant: null, payload: { status: { status: 'read' } } };

const matches = (filter: DestinationFilter, event: ForwardedEvent | Record<string, unknown> = message) => matchesFilter(filter, event);

describe('matchesFilter', () => {
  it('takes every event with the empty filter', () => {
    expect(matches({})).toBe(true);
    expect(matches({}, status)).toBe(true);
    expect(matches({}, {})).toBe(true);
    expect(matches({ match: {} })).toBe(true);
  });

  it('takes any of the listed sources, kinds, types and tenants, all criteria together', () => {
    expect(matches({ source: ['meta'], kind: ['message'], type: ['text', 'image'], tenant: ['106540352242922'] })).toBe(true);
    expect(matches({ source: ['waha', 'evolution'] })).toBe(false);
    expect(matches({ kind: ['message', 'status'] }, status)).toBe(true);
    expect(matches({ kind: ['message'], type: ['read'] }, status)).toBe(false);
    expect(matches({ type: ['Text'] })).toBe(false);
  });

  it('never matches a tenant list when the event has no tenant', () => {
    expect(matches({ tenant: ['106540352242922'] }, status)).toBe(false);
  });

  it('follows dotted paths, with any of a list of expected values', () => {
    expect(matches({ match: { fromMe: false, 'payload.message.type': 'text' } })).toBe(true);
    expect(matches({ match: { 'payload.message.type': ['image', 'text'] } })).toBe(true);
    expect(matches({ match: { 'payload.message.text.body': 'hi', 'payload.metadata.phone_number_id': '106540352242922' } })).toBe(true);
    expect(matches({ match: { 'payload.message.type': 'text', fromMe: true } })).toBe(false);
    expect(matches({ match: { 'payload.message.type': 'image' } })).toBe(false);
  });

  it('indexes lists with number segments and searches them element by element otherwise', () => {
    expect(matches({ match: { 'payload.entries.0.id': 'e1' } })).toBe(true);
    expect(matches({ match: { 'payload.entries.1.id': 'e1' } })).toBe(false);
    expect(matches({ match: { 'payload.entries.2.id': 'e1' } })).toBe(false);
    expect(matches({ match: { 'payload.entries.id': 'e2' } })).toBe(true);
    expect(matches({ match: { 'payload.entries.tags': 'new' } })).toBe(true);
    expect(matches({ match: { 'payload.entries.0.tags': 'vip', 'payload.entries.count': 3 } })).toBe(true);
    expect(matches({ match: { 'payload.entries.1.tags': 'vip' } })).toBe(false);
    expect(matches({ match: { 'payload.matrix': 3 } })).toBe(true);
    expect(matches({ match: { 'payload.matrix.0.1': 2 } })).toBe(true);
    expect(matches({ match: { 'payload.entries.01.id': 'e2' } })).toBe(false);
  });

  it('compares strictly: a number never equals its string, and a missing field is not null', () => {
    expect(matches({ match: { 'payload.message.timestamp': 1735689600 } })).toBe(false);
    expect(matches({ match: { 'payload.message.timestamp': '1735689600' } })).toBe(true);
    expect(matches({ match: { 'payload.entries.count': '3' } })).toBe(false);
    expect(matches({ match: { fromMe: 'false' } })).toBe(false);
    expect(matches({ match: { fromUserId: null } })).toBe(true);
    expect(matches({ match: { 'payload.nothing': null } })).toBe(false);
    expect(matches({ match: { 'payload.message': 'text' } })).toBe(false);
    expect(matches({ match: { replay: 0 } })).toBe(true);
  });

  it('reads own properties only: prototypes are never reached', () => {
    for (const path of ['payload.constructor.name', 'payload.__proto__.constructor', 'payload.toString', 'payload.entries.length', 'payload.message.type.length', 'id.length']) {
      expect(matches({ match: { [path]: 'Object' } })).toBe(false);
      expect(matches({ match: { [path]: 2 } })).toBe(false);
    }
    const own = JSON.parse('{"payload": {"__proto__": {"polluted": "yes"}, "constructor": "mine"}}') as Record<string, unknown>;
    expect(matches({ match: { 'payload.__proto__.polluted': 'yes', 'payload.constructor': 'mine' } }, own)).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(matches({ source: ['meta'] }, Object.create({ provider: 'meta' }) as Record<string, unknown>)).toBe(false);
  });

  it('applies the filters of a parsed file: one destination per slice of the traffic', () => {
    const destinations = parseDestinations(
      `
- { name: bot, url: "https://bot.example", filter: { kind: message, tenant: '106540352242922', match: { fromMe: false } } }
- { name: crm, url: "https://crm.example", filter: { kind: status, type: [delivered, read] } }
- { name: warehouse, url: "https://dw.example" }
- { name: numbers, url: "https://n.example", filter: { match: { payload.metadata.phone_number_id: 106540352242922 } } }
`,
      'yaml',
      { maxAttempts: 10, timeoutMs: 10_000 },
    );
    const takers = (event: ForwardedEvent) => destinations.filter((d) => matchesFilter(d.filter, event)).map((d) => d.name);
    expect(takers(message)).toEqual(['bot', 'warehouse']);
    expect(takers(status)).toEqual(['crm', 'warehouse']);
    expect(takers({ ...message, fromMe: true })).toEqual(['warehouse']);
  });
});

describe('readFilter', () => {
  const read = (value: unknown) => {
    const problems: string[] = [];
    const filter = readFilter(value, (field, problem) => problems.push(`${field} ${problem}`));
    return { filter, problems };
  };

  it('takes single values where lists are expected, and leaves out what is not given', () => {
    expect(read({ source: 'meta', kind: ['message', 'status'], type: 'text', match: { fromMe: false, 'payload.message.type': ['text', null, 1] } })).toEqual({
      filter: { source: ['meta'], kind: ['message', 'status'], type: ['text'], match: { fromMe: false, 'payload.message.type': ['text', null, 1] } },
      problems: [],
    });
    expect(read(null)).toEqual({ filter: {}, problems: [] });
    expect(read({})).toEqual({ filter: {}, problems: [] });
  });

  it('names the field of every problem', () => {
    expect(read(['meta']).problems).toEqual(['filter must be a mapping (source, kind, type, tenant, match)']);
    expect(read({ sender: 'x', source: [], kind: 'messages', type: ['text', 1], tenant: [''] }).problems).toEqual([
      'filter.sender is not a known key (source, kind, type, tenant, match)',
      'filter.source must not be an empty list (leave it out to match every event)',
      'filter.kind "messages" is not one of message, status, other',
      'filter.type holds the number 1; write it in quotes',
      'filter.tenant must be a string or a list of strings',
    ]);
    expect(read({ match: ['fromMe'] }).problems).toEqual(['filter.match must be a mapping of dotted paths to values, e.g. payload.message.type: text']);
    expect(read({ match: { fromMe: [], 'payload..type': 'x', 'headers.x': 1, 'payload.n': { a: 1 }, 'payload.inf': Infinity } }).problems).toEqual([
      'filter.match.fromMe must not be an empty list',
      'filter.match.payload..type is not a dotted path (it has an empty segment)',
      'filter.match.headers.x must start with a field of the forwarded event (id, provider, kind, type, from, fromUserId, tenant, fromMe, authenticated, timestamp, receivedAt, replay, payload)',
      'filter.match.payload.n must be a string, a number, true, false, null or a list of these',
      'filter.match.payload.inf must be a string, a number, true, false, null or a list of these',
    ]);
  });

  it('keeps __proto__ and constructor as plain keys', () => {
    const value = JSON.parse('{"constructor": ["x"], "match": {"__proto__": 1, "payload.__proto__.x": 2}}') as unknown;
    const { filter, problems } = read(value);
    expect(problems).toEqual([
      'filter.constructor is not a known key (source, kind, type, tenant, match)',
      'filter.match.__proto__ must start with a field of the forwarded event (id, provider, kind, type, from, fromUserId, tenant, fromMe, authenticated, timestamp, receivedAt, replay, payload)',
    ]);
    expect(Object.getPrototypeOf(filter.match)).toBe(Object.prototype);
    expect(Object.keys(filter.match!)).toEqual(['__proto__', 'payload.__proto__.x']);
  });
});
