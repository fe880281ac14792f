import { InvalidPayloadError } from '../common/domain-errors.js';
import { detectSource, type SourceName } from './source-registry.js';
import { parseGenericBody } from './generic/generic.parser.js';
import { parseMetaBody } from './meta/meta.parser.js';
import { MAX_SENDER_LENGTH, MAX_TYPE_LENGTH, type NormalizedEvent } from './shared/normalized-event.js';
import type { JsonObject } from './shared/payload-values.js';
import { parseEvolutionBody } from './evolution/evolution.parser.js';
import { parseWahaBody } from './waha/waha.parser.js';
import { parseWasenderBody } from './wasender/wasender.parser.js';

// What POST /webhook does with a body (src/sources), without the signatures.
const PARSERS: Record<Extract<SourceName, 'meta' | 'wasender' | 'generic' | 'waha' | 'evolution'>, (body: JsonObject) => NormalizedEvent[]> = {
  meta: parseMetaBody, wasender: parseWasenderBody, generic: parseGenericBody, waha: parseWahaBody, evolution: parseEvolutionBody,
};
function parseRequest(body: unknown) {
  const source = detectSource(body) as keyof typeof PARSERS;
  return { source, events: PARSERS[source](body as JsonObject) };
}

function metaMessages(...messages: unknown[]) {
  return { object: 'whatsapp_business_account', entry: [{ id: 'W', changes: [{ field: 'messages', value: { messages } }] }] };
}

describe('the parsers, by detected source', () => {
  it('runs the detected source’s parser', () => {
    expect(parseRequest(metaMessages({ id: 'wamid.A' }))).toMatchObject({ source: 'meta', events: [{ key: 'meta:msg:wamid.A' }] });
    const wasender = { event: 'messages.received', data: { messages: { key: { id: 'A' } } } };
    expect(parseRequest(wasender)).toMatchObject({ source: 'wasender', events: [{ key: 'wasender:msg:A' }] });
    expect(parseRequest({ id: 'A' })).toMatchObject({ source: 'generic', events: [{ key: 'generic:msg:A' }] });
  });

  it('never lets the same id from two sources share a key', () => {
    const meta = parseRequest(metaMessages({ id: 'SAME' })).events[0]?.key;
    const wasender = parseRequest({ event: 'messages.upsert', data: { messages: [{ key: { id: 'SAME' } }] } }).events[0]?.key;
    const generic = parseRequest({ id: 'SAME' }).events[0]?.key;
    expect(new Set([meta, wasender, generic]).size).toBe(3);
  });

  it('keeps duplicates inside one body as separate events', () => {
    const { events } = parseRequest(metaMessages({ id: 'wamid.D' }, { id: 'wamid.D' }));
    expect(events.map((e) => e.key)).toEqual(['meta:msg:wamid.D', 'meta:msg:wamid.D']);
  });

  it('bounds type and sender lengths without splitting characters', () => {
    const { events } = parseRequest(metaMessages({ id: 'wamid.L', type: '😀'.repeat(100), from: '9'.repeat(500) }));
    expect(Array.from(events[0]?.type ?? '')).toHaveLength(MAX_TYPE_LENGTH);
    expect(events[0]?.type).toBe('😀'.repeat(MAX_TYPE_LENGTH));
    expect(events[0]?.sender).toHaveLength(MAX_SENDER_LENGTH);
  });

  it.each([
    ['a Meta body without entries', { object: 'whatsapp_business_account' }],
    ['a Meta body with an empty list of entries', { object: 'whatsapp_business_account', entry: [] }],
    ['a Meta body whose entries have no changes', { object: 'whatsapp_business_account', entry: [{ id: 'W', changes: [] }, { id: 'W' }] }],
    ['a generic body with nothing identifying', { text: 'hello' }],
  ])('find no event in %s (the webhook answers 400)', (_name, body) => {
    expect(parseRequest(body).events).toEqual([]);
  });

  // Answered 400, a source's own body would be retried for days (Meta: 7).
  it.each([
    ['a Meta change whose messages have no id', metaMessages({ from: '1' }, { id: 7 }), 'meta', 'messages'],
    ['a WASender update without a status', { event: 'messages.update', data: { key: { id: 'A' }, update: {} } }, 'wasender', 'messages.update'],
    ['a WASender message event without a message', { event: 'messages.received', data: {} }, 'wasender', 'messages.received'],
  ])('store %s as one content-keyed other event of its source', (_name, body, source, type) => {
    const { events } = parseRequest(body);
    expect(events).toEqual([expect.objectContaining({ source, kind: 'other', type, key: expect.stringMatching(new RegExp(`^${source}:other:[0-9a-f]{64}$`)) })]);
    expect(parseRequest(structuredClone(body)).events[0]?.key).toBe(events[0]?.key);
  });

  it('throws InvalidPayloadError for bodies that are not JSON objects', () => {
    for (const body of [null, [], 'text', 3]) {
      expect(() => parseRequest(body)).toThrow(new InvalidPayloadError('body is not a JSON object'));
    }
  });

  it('parses a batch of 1,000 updates in one linear pass', () => {
    const messages = Array.from({ length: 1000 }, (_, index) => ({ id: `wamid.${index}`, from: `${index}` }));
    const contacts = messages.map((message) => ({ wa_id: message.from }));
    const body = { object: 'whatsapp_business_account', entry: [{ id: 'W', changes: [{ field: 'messages', value: { contacts, messages } }] }] };
    const { events } = parseRequest(body);
    expect(events).toHaveLength(1000);
    expect(events[999]?.raw).toMatchObject({ contact: { wa_id: '999' } });
  });
});
