import fc from 'fast-check';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { InvalidPayloadError } from '../../common/domain-errors.js';
import { readFileSync } from 'node:fs';
import { FORM_BODY } from '../body-formats.js';
import { parseTwilioBody } from './twilio.parser.js';
import { SINGLETON_NAMES, isSingleton, twilioParams } from './twilio-params.js';

const decode = (text: string) => twilioParams(FORM_BODY.decode(text));
const SID = `SM${'0a'.repeat(16)}`;
const URL_SIGNED = 'https://hooks.example.com/webhook/twilio';
const signed = (params: Record<string, string | readonly string[]>) => getExpectedTwilioSignature('token', URL_SIGNED, params as Record<string, string | string[]>);

describe('twilioParams', () => {
  it.each([...SINGLETON_NAMES, 'MediaUrl0', 'MediaContentType9'])('refuses %s sent twice, even with the same value, naming it', (name) => {
    const refuse = () => decode(`${name}=a&${name}=a`);
    expect(refuse).toThrow(InvalidPayloadError);
    expect(refuse).toThrow(`${name} is repeated: Twilio sends it once`);
  });

  it('takes every single-valued parameter sent once, and a nameless one never', () => {
    const params = decode(SINGLETON_NAMES.map((name) => `${name}=${name.endsWith('Sid') ? SID : 'v'}`).join('&'));
    expect(Object.keys(params)).toEqual([...SINGLETON_NAMES].sort());
    expect(() => decode('Body=x&=')).toThrow('a parameter name is not one Twilio sends');
  });

  it('keeps another repeated name as its distinct values, sorted: the set the signature covers', () => {
    expect(decode('Tag=b&Tag=a&Tag=b&One=x&One=x')).toEqual({ Tag: ['a', 'b'], One: 'x' });
    expect(Object.isFrozen(decode('Tag=b&Tag=a').Tag)).toBe(true);
  });

  it('gives equal parameters to bodies that twilio-node signs alike, and unequal ones otherwise', () => {
    const name = fc.constantFrom('Tag', 'Extra', 'Zed');
    const body = fc.array(fc.tuple(name, fc.constantFrom('a', 'b', '')), { maxLength: 6 });
    fc.assert(
      fc.property(body, body, (a, b) => {
        const [pa, pb] = [a, b].map((pairs) => decode(new URLSearchParams(pairs).toString()));
        expect(signed(pa!) === signed(pb!)).toBe(JSON.stringify(pa) === JSON.stringify(pb));
      }),
    );
  });

  it('refuses what no form decodes to, so a parser is never handed it', () => {
    for (const body of [null, 'text', ['a'], { Body: 1 }, { Tag: ['a', 2] }]) expect(() => twilioParams(body)).toThrow(InvalidPayloadError);
  });

  it('refuses a parameter named __proto__ (no Twilio name) without touching the prototype', () => {
    expect(() => twilioParams(Object.fromEntries([['__proto__', 'x']]))).toThrow('a parameter name is not one Twilio sends');
    expect(Object.getPrototypeOf(twilioParams({}))).toBe(Object.prototype);
  });

  it('matches media items by index only, in linear time on long names', () => {
    expect(['MediaUrl0', 'MediaUrl10', 'MediaContentType3'].every(isSingleton)).toBe(true);
    expect(['MediaUrl', 'MediaUrlX', 'XMediaUrl0', 'MediaUrl0 ', 'Tag'].some(isSingleton)).toBe(false);
    expect(isSingleton(`MediaUrl${'1'.repeat(1_000_000)}x`)).toBe(false);
  });
});

/** A fixture's parameters, in name order: the order they are signed in. */
const fixture = (name: string) =>
  [...new URLSearchParams(readFileSync(new URL(`../../../test/fixtures/twilio/${name}.txt`, import.meta.url), 'utf8').trim())].sort(([a], [b]) => (a < b ? -1 : 1));

/** The signed text re-cut at `cuts` (offsets into it), alternately name and value: the same signature when the names stay sorted. */
function resplit(text: string, cuts: number[]): Record<string, string> | null {
  const bounds = [0, ...cuts, text.length];
  const params: Record<string, string> = {};
  const names: string[] = [];
  for (let i = 0; i + 2 < bounds.length + 1; i += 2) {
    const name = text.slice(bounds[i], bounds[i + 1]);
    if (name === '' || name in params) return null;
    params[name] = text.slice(bounds[i + 1], bounds[i + 2]);
    names.push(name);
  }
  return names.every((name, i) => i === 0 || names[i - 1]! < name) ? params : null;
}

describe('a signed body re-split into other parameters (the signature does not separate names from values)', () => {
  const STATUS_BODY = Object.fromEntries(fixture('status_delivered'));
  const signature = signed(STATUS_BODY);
  const keysOf = (params: Record<string, string>) => parseTwilioBody(twilioParams(params)).map((event) => event.key);

  it.each([
    ['the statuses renamed', { MessageStatus: undefined, SmsStatus: undefined, MessageStatusd: 'elivered', SmsStatusd: 'elivered' }, 'named like MessageStatus'],
    ['MessageStatus swallowed by MessageSid', { MessageStatus: undefined, MessageSid: `${STATUS_BODY.MessageSid}MessageStatusdelivered` }, 'MessageSid is not a Twilio sid'],
    ['MessageStatus cut short', { MessageStatus: 'deliv', SmsSid: undefined, SmsStatus: undefined, To: undefined, [`eredSmsSid${STATUS_BODY.SmsSid}SmsStatusdeliveredTowhatsapp`]: ':+14155550123' }, 'a parameter name is not one Twilio sends'],
  ])('refuses %s, which twilio-node validates', (_name, changes, refusal) => {
    const params = Object.fromEntries(Object.entries({ ...STATUS_BODY, ...changes }).filter(([, value]) => value !== undefined)) as Record<string, string>;
    expect(signed(params)).toBe(signature);
    expect(() => twilioParams(params)).toThrow(refusal);
  });

  it('refuses a status that ran into the next parameter', () => {
    const body = { MessageSid: STATUS_BODY.MessageSid!, MessageStatus: 'delivered', MessageType: 'text' };
    const swallowed = { MessageSid: STATUS_BODY.MessageSid!, MessageStatus: 'deliveredMessageTypetext' };
    expect(signed(swallowed)).toBe(signed(body));
    expect(() => twilioParams(swallowed)).toThrow('MessageStatus is not a Twilio status');
  });

  it.each(['status_delivered', 'status_failed', 'inbound_text', 'inbound_image'])('gives %s re-cut anywhere near its boundaries the same keys or a refusal', (name) => {
    const pairs = fixture(name);
    const text = pairs.map(([n, v]) => n + v).join('');
    const original: number[] = [];
    let at = 0;
    for (const [n, v] of pairs) original.push(at, (at += n.length)) && (at += v.length);
    original.shift();
    const expected = keysOf(Object.fromEntries(pairs));
    let valid = 0;
    // Up to three edits of the original cuts: one moved by a few characters, or a name merged into the value before it.
    const edit = fc.oneof(
      fc.record({ index: fc.nat(original.length - 1), delta: fc.integer({ min: -14, max: 14 }) }),
      fc.record({ merge: fc.nat(Math.max(0, (original.length - 3) / 2)) }),
    );
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        let cuts = [...original];
        for (const change of edits) {
          if ('merge' in change) cuts = cuts.filter((_, i) => i !== 2 * change.merge + 1 && i !== 2 * change.merge + 2);
          else if (change.index < cuts.length) cuts[change.index] = cuts[change.index]! + change.delta;
        }
        if (cuts.some((cut, i) => cut <= 0 || cut >= text.length || (i > 0 && cut <= cuts[i - 1]!))) return;
        const params = resplit(text, cuts);
        if (params === null || signed(params) !== signed(Object.fromEntries(pairs))) return;
        valid++;
        let keys: string[] = [];
        try {
          keys = keysOf(params);
        } catch (error) {
          if (!(error instanceof InvalidPayloadError)) throw error;
        }
        if (keys.length > 0) expect(keys).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
    expect(valid).toBeGreaterThan(100);
  });
});
