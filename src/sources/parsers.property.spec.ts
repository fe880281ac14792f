import fc from 'fast-check';
import { InvalidPayloadError } from '../common/domain-errors.js';
import { detectSource as detectSource } from './source-registry.js';
import { parseGenericBody } from './generic/generic.parser.js';
import { MAX_KEY_LENGTH } from './shared/idempotency-key.js';
import { parseMetaBody } from './meta/meta.parser.js';
import { MAX_SENDER_LENGTH, MAX_TYPE_LENGTH, type NormalizedEvent } from './shared/normalized-event.js';
import type { SourceName } from './source-registry.js';
import type { JsonObject } from './shared/payload-values.js';
import { parseEvolutionBody } from './evolution/evolution.parser.js';
import { twilioParams } from './twilio/twilio-params.js';
import { parseTwilioBody } from './twilio/twilio.parser.js';
import { parseWahaBody } from './waha/waha.parser.js';
import { parseWasenderBody } from './wasender/wasender.parser.js';

/**
 * Property tests of the parsers: whatever JSON arrives, they answer events that fit the columns
 * or an InvalidPayloadError (400), never anything else, and the keys depend on the content only.
 * Default random seeds; fast-check prints the seed and the shrunk counterexample on failure.
 */

// ---------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
/** One "unit" of text: mostly ASCII, some of all of Unicode, lone surrogates and characters with a meaning somewhere. */
const unit = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u2028', '\ufeff', '\u{1F600}', '"', '\\', ':', '@', ' ', '\n', 'é', 'ـ') },
);
const text = fc.string({ unit, maxLength: 24 });
/** Longer than every column: a key part, a type or a sender of up to 5,000 code units (sometimes cut inside a pair). */
const hugeText = fc
  .tuple(fc.string({ unit, minLength: 1, maxLength: 8 }), fc.integer({ min: 200, max: 5000 }))
  .map(([seed, length]) => seed.repeat(Math.ceil(length / seed.length)).slice(0, length));
const numericText = fc.constantFrom(
  'NaN', 'Infinity', '-Infinity', '1e308', '-1e308', '1e309', '5e-324', '0x10', '0b1', ' 12 ', '', '   ', '0', '-0', '-1',
  '-1700000000', '1700000000', '1700000000000', '999999999999', '1000000000001', '253402300799999', '253402300800000',
  '8.64e15', '2025-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00Z', '1.5', '١٢٣',
  '00000000000000000000001', '99999999999999999999', '9'.repeat(400), 'null', 'true', '{}', '[]', '__proto__',
);
const specialNumber = fc.constantFrom(
  0, -0, 1, -1, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, -1700000000, 1700000000,
  1700000000000, 1e12, 1e12 + 1, -1e12, 253402300799999, 253402300800000, 8.64e15, 8.64e15 + 1, 1.5, 0.1, 2 ** 53, 2 ** 64,
);
const number = fc.oneof(specialNumber, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
const scalar = fc.oneof(
  { weight: 4, arbitrary: text },
  { weight: 1, arbitrary: hugeText },
  { weight: 2, arbitrary: numericText },
  { weight: 3, arbitrary: number },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);
/** Object member names: the ones the parsers read, prototype names, and anything. */
const FIELD_NAMES = [
  'id', 'from', 'type', 'timestamp', 'event', 'data', 'messages', 'statuses', 'status', 'key', 'message', 'receipt',
  'entry', 'changes', 'value', 'field', 'object', 'contacts', 'wa_id', 'messageId', 'update', 'fromMe', 'sessionId',
  'conversation', 'imageMessage', 'ephemeralMessage', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'length',
];
const fieldName = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...FIELD_NAMES) }, { weight: 1, arbitrary: text });

const { value: jsonish } = fc.letrec<{ value: unknown; array: unknown[]; object: Record<string, unknown> }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fieldName, tie('value'), { maxKeys: 5 }),
}));

/** The documented shape `arb` most of the time, anything at all otherwise. */
const orJunk = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: jsonish });
/** A record whose every member may be missing. */
const partial = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T) => fc.record(model, { requiredKeys: [] });
const listOrJunk = <T>(arb: fc.Arbitrary<T>) => orJunk(fc.array(arb, { minLength: 1, maxLength: 4 }));
/** A record that usually has its identifying members (`required`), sometimes misses any of them. */
const mostly = <T extends Record<string, fc.Arbitrary<unknown>>>(model: T, required: (keyof T & string)[]) =>
  fc.oneof({ weight: 3, arbitrary: fc.record(model, { requiredKeys: required }) }, { weight: 1, arbitrary: partial(model) });

/** Ids from a small pool (so bodies repeat keys) or anything. */
const idLike = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('wamid.A', 'wamid.B', 'ABC', '3EB0C0FFEE') },
  { weight: 4, arbitrary: text },
  { weight: 1, arbitrary: hugeText },
  { weight: 1, arbitrary: numericText },
  { weight: 1, arbitrary: number },
);
const timestampLike = fc.oneof(numericText, number, fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), text);

// Meta Cloud API
const metaMessage = mostly({ id: idLike, from: idLike, timestamp: timestampLike, type: orJunk(fc.oneof(text, hugeText)), text: jsonish }, ['id']);
const metaStatus = mostly(
  {
    id: idLike,
    status: orJunk(fc.oneof(fc.constantFrom('sent', 'delivered', 'read', 'failed', 'DELIVERED', ' '), text, hugeText)),
    timestamp: timestampLike,
    recipient_id: idLike,
    recipient_participant_id: idLike,
    errors: jsonish,
  },
  ['id', 'status'],
);
const metaValue = partial({
  messaging_product: fc.constant('whatsapp'),
  metadata: jsonish,
  contacts: listOrJunk(partial({ wa_id: idLike, profile: jsonish })),
  messages: listOrJunk(orJunk(metaMessage)),
  statuses: listOrJunk(orJunk(metaStatus)),
  errors: jsonish,
});
const metaChange = mostly({ field: orJunk(fc.oneof(fc.constantFrom('messages', 'account_update', 'calls'), text, hugeText)), value: orJunk(metaValue) }, ['field', 'value']);
const metaEntry = mostly({ id: idLike, time: timestampLike, changes: listOrJunk(orJunk(metaChange)) }, ['id', 'changes']);
const metaBody = mostly({ object: orJunk(fc.constant('whatsapp_business_account')), entry: listOrJunk(orJunk(metaEntry)) }, ['object', 'entry']);

// WASenderApi
const jidLike = fc.oneof(idLike, fc.tuple(text, text, text).map(([n, d, s]) => `${n}:${d}@${s}`));
const wasenderKey = mostly({ id: idLike, fromMe: orJunk(fc.boolean()), remoteJid: jidLike, senderPn: jidLike, cleanedSenderPn: idLike, participant: jidLike }, ['id']);
const CONTENT_FIELDS = ['conversation', 'extendedTextMessage', 'imageMessage', 'protocolMessage', 'reactionMessage', 'messageContextInfo', 'senderKeyDistributionMessage'];
const WRAPPERS = ['ephemeralMessage', 'viewOnceMessage', 'viewOnceMessageV2', 'viewOnceMessageV2Extension'];
const { content: wasenderContent } = fc.letrec<{ content: unknown }>((tie) => ({
  content: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.dictionary(fc.oneof(fc.constantFrom(...CONTENT_FIELDS), fieldName), jsonish, { maxKeys: 3 }),
    fc.record({ [WRAPPERS[0]]: partial({ message: tie('content') }) }),
    fc.constantFrom(...WRAPPERS).chain((wrapper) => fc.dictionary(fc.constant(wrapper), partial({ message: tie('content') }), { minKeys: 1, maxKeys: 1 })),
  ),
}));
const wasenderMessage = mostly({ key: orJunk(wasenderKey), message: orJunk(wasenderContent), messageTimestamp: timestampLike, pushName: text }, ['key', 'message']);
const statusCode = fc.oneof(fc.integer({ min: -2, max: 9 }), numericText, text, number, fc.constantFrom('3', '04', '99999999999999999999', '9'.repeat(400)));
const receipt = fc.record(
  { userJid: jidLike, receiptTimestamp: timestampLike, readTimestamp: timestampLike, playedTimestamp: timestampLike },
  { requiredKeys: [] },
);
const dataOf = <T>(item: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: item }, { weight: 2, arbitrary: fc.array(orJunk(item), { minLength: 1, maxLength: 4 }) }, { weight: 1, arbitrary: jsonish });
const MESSAGE_EVENTS = ['messages.received', 'messages.upsert', 'messages-personal.received', 'messages-group.received', 'messages-newsletter.received'];
const OTHER_EVENTS = ['session.status', 'chats.upsert', 'contacts.update', 'messages.received ', 'Messages.Upsert', 'messages.delete', 'qrcode.updated'];
/** WASender's body per event family: [event, data]. */
const wasenderEventAndData = fc.oneof(
  fc.tuple(
    fc.constantFrom(...MESSAGE_EVENTS),
    dataOf(fc.oneof(mostly({ messages: orJunk(fc.oneof(wasenderMessage, fc.array(wasenderMessage, { maxLength: 3 }))) }, ['messages']), wasenderMessage)),
  ),
  fc.tuple(fc.constant('messages.update'), dataOf(mostly({ key: orJunk(wasenderKey), update: orJunk(mostly({ status: statusCode }, ['status'])) }, ['key', 'update']))),
  fc.tuple(
    fc.constant('message-receipt.update'),
    dataOf(
      fc.oneof(
        mostly({ message: mostly({ key: orJunk(wasenderKey), receipt: orJunk(receipt) }, ['key', 'receipt']) }, ['message']),
        mostly({ key: orJunk(wasenderKey), receipt: orJunk(receipt) }, ['key', 'receipt']),
      ),
    ),
  ),
  fc.tuple(fc.oneof(fc.constantFrom(...OTHER_EVENTS), text, jsonish), jsonish),
);
/** WASender's session API key: 32+ hex characters, so it cannot occur in the rest of a generated body by chance. */
const sessionId = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 64 }).map((hex) => `sk_${hex}`);
const wasenderBodyWith = (session: fc.Arbitrary<unknown>, sessionRequired = false) =>
  fc
    .tuple(wasenderEventAndData, fc.record({ sessionId: session, timestamp: timestampLike }, { requiredKeys: sessionRequired ? ['sessionId'] : [] }))
    .map(([[event, data], rest]) => ({ event, ...rest, data }));
const wasenderBody = wasenderBodyWith(orJunk(sessionId));

// The generic flat shape
const genericBody = mostly({
  event: orJunk(fc.oneof(fc.constantFrom('message', 'status', 'message.status', 'STATUS_UPDATE'), text, hugeText)),
  id: idLike,
  messageId: idLike,
  timestamp: timestampLike,
  from: idLike,
  type: orJunk(fc.oneof(text, hugeText)),
  status: orJunk(fc.oneof(fc.constantFrom('delivered', 'READ'), text, hugeText)),
  fromMe: orJunk(fc.boolean()),
  text: jsonish,
}, ['event', 'timestamp', 'from']);
const webhookId = fc.option(fc.oneof(text, hugeText), { nil: undefined });

/** Everything a parser may be given: source shapes, arbitrary JSON values, JSON-able `anything`. */
const anyBody = fc.oneof(
  metaBody,
  wasenderBody,
  genericBody,
  jsonish,
  fc.jsonValue({ stringUnit: unit }),
  fc.anything({ withNullPrototype: false, withBoxedValues: false, withMap: false, withSet: false, withObjectString: false }),
);

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** What the webhook would parse: the value as it comes out of JSON.parse (no undefined, -0, NaN…); undefined when it is not JSON-able. */
function asReceived(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/** The same value serialized with every object's members in another (pseudo-random) order, then parsed again. */
function reordered(value: unknown, salt: number): unknown {
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
    if (v !== null && typeof v === 'object') {
      const names = Object.keys(v);
      const order = names.map((name, i) => ({ name, rank: hash32(`${salt}:${i}:${name}`) })).sort((a, b) => a.rank - b.rank);
      return `{${order.map(({ name }) => `${JSON.stringify(name)}:${write((v as Record<string, unknown>)[name])}`).join(',')}}`;
    }
    return JSON.stringify(v);
  };
  return JSON.parse(write(value));
}

function hash32(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const PARSERS: Record<SourceName, (body: JsonObject, second?: string) => NormalizedEvent[]> = {
  meta: (body) => parseMetaBody(body),
  wasender: parseWasenderBody,
  generic: parseGenericBody,
  '360dialog': (body) => parseMetaBody(body, '360dialog'),
  // A form body decodes to an object of strings; any JSON object stands in for one here, made
  // canonical as the source does before verifying (a 400 for what a form cannot carry).
  twilio: (body) => parseTwilioBody(twilioParams(body)),
  waha: parseWahaBody,
  evolution: (body, extra) => parseEvolutionBody(body, extra),
};

type Outcome = { events: NormalizedEvent[] } | { rejected: InvalidPayloadError };

/** Runs `parse`; an InvalidPayloadError is an allowed answer, any other throw fails the property. */
function attempt(parse: () => NormalizedEvent[]): Outcome {
  try {
    return { events: parse() };
  } catch (error) {
    if (error instanceof InvalidPayloadError) return { rejected: error };
    throw error;
  }
}

const codePoints = (text: string) => Array.from(text).length;

/** The column bounds and namespacing every event must satisfy. */
function expectWellFormed(events: NormalizedEvent[], provider: SourceName): void {
  expect(Array.isArray(events)).toBe(true);
  for (const event of events) {
    expect(typeof event.key).toBe('string');
    expect(event.key.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
    expect(event.key.startsWith(`${provider}:`)).toBe(true);
    expect(event.source).toBe(provider);
    expect(['message', 'status', 'other']).toContain(event.kind);
    expect(typeof event.type).toBe('string');
    expect(codePoints(event.type)).toBeLessThanOrEqual(MAX_TYPE_LENGTH);
    if (event.sender !== null) {
      expect(typeof event.sender).toBe('string');
      expect(codePoints(event.sender)).toBeLessThanOrEqual(MAX_SENDER_LENGTH);
    }
    if (event.providerTimestamp !== null) {
      expect(event.providerTimestamp).toBeInstanceOf(Date);
      expect(Number.isNaN(event.providerTimestamp.getTime())).toBe(false);
    }
    expect(typeof event.fromMe).toBe('boolean');
    expect(event.authenticated).toBe(false);
    expect(event.raw !== null && typeof event.raw === 'object').toBe(true);
  }
}

/** Every parser on a body: an object goes through all of them (a per-source URL may receive any shape), anything else must be refused by detectSource. */
function checkBody(body: unknown, webhookId?: string): void {
  const detected = attempt(() => [{ source: detectSource(body) } as NormalizedEvent]);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    expect(detected).toHaveProperty('rejected');
    return;
  }
  expect(detected).toHaveProperty('events');
  for (const provider of Object.keys(PARSERS) as SourceName[]) {
    const outcome = attempt(() => PARSERS[provider](body as JsonObject, webhookId));
    if ('events' in outcome) expectWellFormed(outcome.events, provider);
  }
}

const keysOf = (outcome: Outcome) => ('events' in outcome ? outcome.events.map((e) => e.key) : `rejected: ${outcome.rejected.message}`);

// Enough runs to cover the shapes, few enough to keep this file at a few seconds.
const RUNS = 400;

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe('parsers, for any JSON body', () => {
  it('answer well-formed events or an InvalidPayloadError, never another error', () => {
    fc.assert(
      fc.property(anyBody, webhookId, (value, webhookId) => {
        const body = asReceived(value);
        if (body !== undefined) checkBody(body, webhookId);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it.each([
    ['meta', metaBody],
    ['wasender', wasenderBody],
    ['generic', genericBody],
  ] as const)('%s-shaped bodies give events that fit the columns, whichever parser reads them', (provider, arbitrary) => {
    fc.assert(
      fc.property(arbitrary, webhookId, (value, webhookId) => {
        const body = asReceived(value) as JsonObject;
        checkBody(body, webhookId);
        // A body that detectSource gives to this source is parsed by it at /webhook, unless
        // one of its strings is longer than field-limits.ts takes.
        if (detectSource(body) !== provider) return;
        const outcome = attempt(() => PARSERS[provider](body, webhookId));
        if ('events' in outcome) expectWellFormed(outcome.events, provider);
        else expect(outcome.rejected.message).toMatch(/ characters long; at most \d+ are accepted$/);
      }),
      { numRuns: RUNS },
    );
  });

  it('survive absurd nesting anywhere (stack overflow becomes InvalidPayloadError)', () => {
    const placements: Array<(deep: unknown) => unknown> = [
      (deep) => ({ object: 'whatsapp_business_account', entry: [{ id: 'E', changes: [{ field: 'account_update', value: deep }] }] }),
      (deep) => ({ entry: [{ changes: [{ field: 'messages', value: { messages: [{ id: 'wamid.N', from: '1', text: deep }] } }] }] }),
      (deep) => ({ event: 'session.status', sessionId: 'sk_x', data: { nested: deep } }),
      (deep) => ({ event: 'messages.upsert', data: { messages: [{ key: { id: 'N' }, message: deep }] } }),
      (deep) => ({ event: 'messages.upsert', data: { messages: [{ key: { id: 'N' }, message: { ephemeralMessage: { message: deep } } }] } }),
      (deep) => ({ from: '1', timestamp: 2, text: deep }),
      (deep) => deep,
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: placements.length - 1 }),
        fc.integer({ min: 2000, max: 60000 }),
        fc.constantFrom('array', 'object', 'mixed'),
        (where, depth, style) => {
          const open = style === 'array' ? '[' : style === 'object' ? '{"a":' : '{"message":[';
          const close = style === 'array' ? ']' : style === 'object' ? '}' : ']}';
          // Built as JSON text and parsed, as the body parser does (JSON.parse itself does not recurse).
          const deep = JSON.parse(`${open.repeat(depth)}1${close.repeat(depth)}`);
          const body = placements[where](deep);
          checkBody(body, undefined);
          checkBody(body, 'msg_deep');
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('idempotency keys', () => {
  it('are deterministic: the same body, or a copy with its object members in another order, gives the same keys', () => {
    fc.assert(
      fc.property(fc.oneof(metaBody, wasenderBody, genericBody, jsonish), webhookId, fc.nat(), (value, webhookId, salt) => {
        const body = asReceived(value);
        if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
        const copy = reordered(body, salt);
        expect(detectSource(copy)).toBe(detectSource(body));
        for (const provider of Object.keys(PARSERS) as SourceName[]) {
          const parse = (b: unknown) => attempt(() => PARSERS[provider](b as JsonObject, webhookId));
          const first = keysOf(parse(body));
          expect(keysOf(parse(body))).toEqual(first);
          expect(keysOf(parse(asReceived(body)))).toEqual(first);
          expect(keysOf(parse(copy))).toEqual(first);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe('WASender sessionId (the session API key)', () => {
  it('never appears in any event’s raw item', () => {
    fc.assert(
      fc.property(wasenderBodyWith(sessionId, true), (value) => {
        const body = asReceived(value) as JsonObject;
        const secret = body.sessionId as string;
        const outcome = attempt(() => parseWasenderBody(body));
        if (!('events' in outcome)) return;
        for (const event of outcome.events) {
          // JSON.stringify would escape nothing in a hex key: a plain substring test is exact.
          expect(JSON.stringify(event.raw)).not.toContain(secret);
          expect(event.key).not.toContain(secret);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
