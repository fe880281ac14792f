import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import fc from 'fast-check';
import { getExpectedTwilioSignature, getSignatureAlgorithm, validateRequest } from 'twilio/lib/webhooks/webhooks.js';
import { checkTwilioSignature, type TwilioCredentials } from './twilio-signature.js';

type Params = Record<string, string | string[]>;

const URL_SIGNED = 'https://hooks.example.com/webhooks/twilio?tenant=a%20b&x=1';
const TOKEN = 'auth-token-0123456789abcdef012345';
const SHARED = 'shared-key-secret-0123456789abcdef';
const SETTINGS = 'key=webhooks_sharedkey_01jexampleexampleexample01,algorithm=HMAC_SHA256';
const TOKENS: TwilioCredentials = { authTokens: [TOKEN], sharedKeys: [] };

function fixture(name: string): Params {
  const text = readFileSync(new URL(`../../../test/fixtures/twilio/${name}.txt`, import.meta.url), 'utf8').trim();
  return Object.fromEntries(new URLSearchParams(text));
}

const PARAMS = fixture('status_delivered');
const twilioSigned = (url: string, params: Params, secret = TOKEN, algorithm?: string) => getExpectedTwilioSignature(secret, url, params, algorithm);

function check(url: string, params: Params, signature: string | undefined, credentials = TOKENS, settings?: string) {
  return checkTwilioSignature({ url, params, signature, settings }, credentials);
}

describe('checkTwilioSignature, cross-checked with the twilio package', () => {
  it('accepts what twilio-node signs, for every fixture', () => {
    for (const name of ['inbound_text', 'inbound_image', 'status_sent', 'status_delivered', 'status_read', 'status_failed', 'status_undelivered']) {
      const params = fixture(name);
      const signature = twilioSigned(URL_SIGNED, params);
      expect(check(URL_SIGNED, params, signature)).toBeNull();
      expect(validateRequest(TOKEN, signature, URL_SIGNED, params)).toBe(true);
    }
  });

  it('agrees with twilio-node on arbitrary parameters, repeated values and empty ones included', () => {
    const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,11}$/);
    const value = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 4 }));
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 8 }), fc.string({ minLength: 1 }), (params, extra) => {
        const signature = twilioSigned(URL_SIGNED, params);
        expect(check(URL_SIGNED, params, signature)).toBeNull();
        const changed = { ...params, Zz: extra };
        expect(check(URL_SIGNED, changed, signature)).toBe('mismatch');
        expect(validateRequest(TOKEN, signature, URL_SIGNED, changed)).toBe(false);
      }),
    );
  });

  it('signs a repeated name once per distinct value, in sorted order', () => {
    const signature = twilioSigned(URL_SIGNED, { MediaUrl: ['b', 'a', 'b'] });
    expect(check(URL_SIGNED, { MediaUrl: ['a', 'b'] }, signature)).toBeNull();
    expect(check(URL_SIGNED, { MediaUrl: ['b', 'a'] }, signature)).toBeNull();
    expect(check(URL_SIGNED, { MediaUrl: ['a'] }, signature)).toBe('mismatch');
    const byHand = createHmac('sha1', TOKEN).update(`${URL_SIGNED}MediaUrlaMediaUrlb`).digest('base64');
    expect(signature).toBe(byHand);
  });

  it('signs UTF-8 values and a parameter named __proto__ like any other', () => {
    const params: Params = Object.fromEntries([['__proto__', 'x'], ['Body', 'café 😀 ok']]);
    const signature = twilioSigned(URL_SIGNED, params);
    expect(check(URL_SIGNED, params, signature)).toBeNull();
    expect(check(URL_SIGNED, { Body: 'café 😀 ok' }, signature)).toBe('mismatch');
  });

  it('refuses another path, another query, an added parameter and a changed value', () => {
    const signature = twilioSigned(URL_SIGNED, PARAMS);
    const refused: [string, Params][] = [
      ['https://hooks.example.com/webhooks/other?tenant=a%20b&x=1', PARAMS],
      ['https://hooks.example.com/webhooks/twilio?tenant=a%20b&x=2', PARAMS],
      ['https://hooks.example.com/webhooks/twilio?x=1&tenant=a%20b', PARAMS],
      ['http://hooks.example.com/webhooks/twilio?tenant=a%20b&x=1', PARAMS],
      [URL_SIGNED, { ...PARAMS, Body: 'injected' }],
      [URL_SIGNED, { ...PARAMS, MessageStatus: 'read' }],
    ];
    for (const [url, params] of refused) {
      expect(check(url, params, signature)).toBe('mismatch');
      expect(validateRequest(TOKEN, signature, url, params)).toBe(false);
    }
  });

  it('accepts the standard port added or removed, and nothing else about the port', () => {
    const bare = 'https://hooks.example.com/webhooks/twilio';
    const withPort = 'https://hooks.example.com:443/webhooks/twilio';
    for (const [signedUrl, receivedUrl] of [
      [bare, withPort],
      [withPort, bare],
      ['http://hooks.example.com/w', 'http://hooks.example.com:80/w'],
      ['https://user@[2001:db8::1]/w', 'https://user@[2001:db8::1]:443/w'],
    ] as const) {
      const signature = twilioSigned(signedUrl, PARAMS);
      expect(check(receivedUrl, PARAMS, signature)).toBeNull();
      expect(validateRequest(TOKEN, signature, receivedUrl, PARAMS)).toBe(true);
    }
    // twilio-node drops any port; a signature for one non-standard port is not taken on another here.
    expect(check('https://hooks.example.com:8443/w', PARAMS, twilioSigned('https://hooks.example.com/w', PARAMS))).toBe('mismatch');
    expect(check('https://hooks.example.com:8443/w', PARAMS, twilioSigned('https://hooks.example.com:8443/w', PARAMS))).toBeNull();
    expect(check('https://hooks.example.com:80/w', PARAMS, twilioSigned('https://hooks.example.com/w', PARAMS))).toBe('mismatch');
  });

  it('accepts any configured Auth Token (rotation) and no other', () => {
    const rotation: TwilioCredentials = { authTokens: ['new-token', TOKEN], sharedKeys: [] };
    expect(check(URL_SIGNED, PARAMS, twilioSigned(URL_SIGNED, PARAMS, 'new-token'), rotation)).toBeNull();
    expect(check(URL_SIGNED, PARAMS, twilioSigned(URL_SIGNED, PARAMS, TOKEN), rotation)).toBeNull();
    expect(check(URL_SIGNED, PARAMS, twilioSigned(URL_SIGNED, PARAMS, 'old-token'), rotation)).toBe('mismatch');
    expect(check(URL_SIGNED, PARAMS, twilioSigned(URL_SIGNED, PARAMS), { authTokens: [], sharedKeys: [] })).toBe('mismatch');
  });

  it('tells a missing, an empty and a malformed header apart', () => {
    expect(check(URL_SIGNED, PARAMS, undefined)).toBe('missing');
    expect(check(URL_SIGNED, PARAMS, '')).toBe('missing');
    expect(check(URL_SIGNED, PARAMS, 'not a signature!')).toBe('malformed');
    expect(check(URL_SIGNED, PARAMS, twilioSigned(URL_SIGNED, PARAMS).replace(/=+$/, '') + '==')).toBe('mismatch');
  });
});

describe('checkTwilioSignature with a SharedKey (X-Twilio-Webhooks-Signature-Settings)', () => {
  const credentials: TwilioCredentials = { authTokens: [TOKEN], sharedKeys: ['previous-shared-key', SHARED] };
  const sha256 = twilioSigned(URL_SIGNED, PARAMS, SHARED, 'HMAC_SHA256');

  it('accepts the algorithm the header names, keyed by a SharedKey secret, as twilio-node does', () => {
    expect(check(URL_SIGNED, PARAMS, sha256, credentials, SETTINGS)).toBeNull();
    expect(validateRequest(SHARED, sha256, URL_SIGNED, PARAMS, getSignatureAlgorithm(SETTINGS))).toBe(true);
    expect(check(URL_SIGNED, PARAMS, sha256, credentials, ' algorithm = hmac_sha256 , key=x ')).toBeNull();
    expect(check(URL_SIGNED, { ...PARAMS, Body: 'x' }, sha256, credentials, SETTINGS)).toBe('mismatch');
  });

  it('reads a header without an algorithm as HMAC_SHA1 with the SharedKey', () => {
    const sha1 = twilioSigned(URL_SIGNED, PARAMS, SHARED, 'HMAC_SHA1');
    expect(check(URL_SIGNED, PARAMS, sha1, credentials, 'key=webhooks_sharedkey_01j')).toBeNull();
    expect(check(URL_SIGNED, PARAMS, sha1, credentials, 'key=k,algorithm=HMAC_SHA1')).toBeNull();
  });

  it('refuses a SHA-256 signature without the settings header (an empty one is absent, as in twilio-node)', () => {
    expect(check(URL_SIGNED, PARAMS, sha256, credentials)).toBe('mismatch');
    expect(check(URL_SIGNED, PARAMS, sha256, credentials, '')).toBe('mismatch');
    expect(check(URL_SIGNED, PARAMS, twilioSigned(URL_SIGNED, PARAMS), credentials, '')).toBeNull();
    expect(check(URL_SIGNED, PARAMS, twilioSigned(URL_SIGNED, PARAMS, TOKEN, 'HMAC_SHA256'), credentials)).toBe('mismatch');
  });

  it('never tries an Auth Token when the header says a SharedKey signed', () => {
    expect(check(URL_SIGNED, PARAMS, twilioSigned(URL_SIGNED, PARAMS, TOKEN), credentials, 'key=k,algorithm=HMAC_SHA1')).toBe('mismatch');
    expect(check(URL_SIGNED, PARAMS, sha256, TOKENS, SETTINGS)).toBe('mismatch');
    expect(check(URL_SIGNED, PARAMS, twilioSigned(URL_SIGNED, PARAMS, TOKEN, 'HMAC_SHA256'), TOKENS, SETTINGS)).toBe('mismatch');
  });

  it('calls an algorithm it does not know malformed', () => {
    expect(check(URL_SIGNED, PARAMS, sha256, credentials, 'key=k,algorithm=HMAC_SHA512')).toBe('malformed');
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(validateRequest(SHARED, sha256, URL_SIGNED, PARAMS, 'HMAC_SHA512')).toBe(false);
    warn.mockRestore();
  });
});
