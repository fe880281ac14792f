import fc from 'fast-check';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { InvalidPayloadError } from '../common/domain-errors.js';
import { FORM_BODY } from '../webhooks/body-formats.js';
import { SINGLETON_NAMES, isSingleton, twilioParams } from './twilio-params.js';

const decode = (text: string) => twilioParams(FORM_BODY.decode(text));
const URL_SIGNED = 'https://hooks.example.com/webhook/twilio';
const signed = (params: Record<string, string | readonly string[]>) => getExpectedTwilioSignature('token', URL_SIGNED, params as Record<string, string | string[]>);

describe('twilioParams', () => {
  it.each([...SINGLETON_NAMES, 'MediaUrl0', 'MediaContentType9'])('refuses %s sent twice, even with the same value, naming it', (name) => {
    const refuse = () => decode(`MessageSid=SM1&${name}=a&${name}=a`);
    expect(refuse).toThrow(InvalidPayloadError);
    expect(refuse).toThrow(`${name} is repeated: Twilio sends it once`);
  });

  it('takes every single-valued parameter sent once, and a nameless one never', () => {
    const params = decode(SINGLETON_NAMES.map((name) => `${name}=v`).join('&'));
    expect(Object.keys(params)).toEqual([...SINGLETON_NAMES].sort());
    expect(() => decode('MessageSid=SM1&=')).toThrow('a parameter has no name');
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

  it('keeps a parameter named __proto__ as data', () => {
    const params = decode('__proto__=x&MessageSid=SM1');
    expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(params, '__proto__')?.value).toBe('x');
  });

  it('matches media items by index only, in linear time on long names', () => {
    expect(['MediaUrl0', 'MediaUrl10', 'MediaContentType3'].every(isSingleton)).toBe(true);
    expect(['MediaUrl', 'MediaUrlX', 'XMediaUrl0', 'MediaUrl0 ', 'Tag'].some(isSingleton)).toBe(false);
    expect(isSingleton(`MediaUrl${'1'.repeat(1_000_000)}x`)).toBe(false);
  });
});
