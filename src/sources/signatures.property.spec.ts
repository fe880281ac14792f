import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { checkStandardWebhook, signingKey, signStandardWebhook, type StandardWebhookHeaders } from '../common/standard-webhooks.js';
import { checkMetaSignature } from './meta/meta-signature.js';
import { checkSharedSecret } from './shared/signatures.js';

/**
 * Property tests of the three signature checks: what a sender signs over some bytes verifies,
 * anything else (other bytes, a re-serialized body, garbage headers) is refused with a reason,
 * nothing throws, and with several secrets any of them verifies. Standard Webhooks is also
 * cross-checked against the spec's own `standardwebhooks` package in both directions.
 */

const RUNS = 300;
const TOLERANCE = 300;

// ---------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
/** Any text, including lone surrogates, control characters and astral characters. */
const anyText = (maxLength = 64) =>
  fc.string({
    unit: fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
      { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
      { weight: 1, arbitrary: loneSurrogate },
      { weight: 1, arbitrary: fc.constantFrom('\u0000', ' ', ',', '=', 'v1,', 'sha256=', '\t', '\r\n') },
    ),
    maxLength,
  });
/** Text as it can arrive in an HTTP header value (Node decodes header bytes as latin1). */
const headerText = (maxLength = 64) => fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength });
/** Header strings: empty, garbage, huge, unicode, and near-misses of the real formats. */
const garbageHeader = fc.oneof(
  anyText(),
  headerText(),
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
  anyText(8).map((t) => `sha256=${t}`),
  fc.stringMatching(/^sha256=[0-9a-fA-F]{60,68}$/),
  fc.stringMatching(/^ *(v[0-9],[A-Za-z0-9+/=]{0,60} ?){0,5}$/),
  fc.constantFrom('', ' ', 'sha256=', 'v1,', 'v1', ',', 'v1,====', 'v1,' + 'A'.repeat(44), '\u0000'),
);
/** Request bytes, as the raw body arrives. */
const bytes = fc.oneof(fc.uint8Array({ maxLength: 512 }), anyText(256).map((t) => new Uint8Array(Buffer.from(t, 'utf8')))).map((b) => Buffer.from(b));
/** Secrets as they come from the environment: non-empty, no commas (the list separator), well-formed text. */
const secret = fc.string({ unit: 'binary', minLength: 1, maxLength: 64 }).filter((s) => !s.includes(','));
const secrets = fc.uniqueArray(secret, { minLength: 1, maxLength: 4, comparator: (a, b) => Buffer.from(a).equals(Buffer.from(b)) });
/** HMAC keys for Standard Webhooks: raw bytes (what `whsec_<base64>` decodes to). */
const keyBytes = fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b));
const keyList = fc.uniqueArray(keyBytes, { minLength: 1, maxLength: 4, comparator: (a, b) => a.equals(b) });
const webhookId = fc.oneof(fc.stringMatching(/^msg_[A-Za-z0-9]{1,30}$/), headerText(40).filter((t) => t !== ''));

/**
 * JSON texts that are not byte-identical to JSON.stringify(JSON.parse(text)): pretty-printed,
 * with \u-escaped non-ASCII (as Meta sends), escaped slashes, or surrounding whitespace.
 */
const escapeNonAscii = (json: string) => json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const nonCanonicalJson = fc
  .tuple(fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }), fc.constantFrom('pretty', 'escaped', 'slashes', 'padded', 'escaped-pretty'))
  .map(([value, style]) => {
    const compact = JSON.stringify(value);
    switch (style) {
      case 'pretty':
        return JSON.stringify(value, null, 2);
      case 'escaped':
        return escapeNonAscii(compact);
      case 'slashes':
        return compact.replace(/\//g, '\\/');
      case 'padded':
        return ` ${compact}\n`;
      case 'escaped-pretty':
        return escapeNonAscii(JSON.stringify(value, null, 1));
    }
  })
  .filter((text) => text !== JSON.stringify(JSON.parse(text)));

const metaSign = (raw: Buffer | string, appSecret: string) => 'sha256=' + createHmac('sha256', appSecret).update(raw).digest('hex');
const FAILURES = ['missing', 'malformed', 'expired', 'mismatch'];

/** Calls `check`; a throw is turned into a failing expectation naming the input. */
function noThrow<T>(check: () => T): T {
  let result: T;
  expect(() => {
    result = check();
  }).not.toThrow();
  return result!;
}

// ---------------------------------------------------------------------------------------------
// Meta: X-Hub-Signature-256
// ---------------------------------------------------------------------------------------------

describe('checkMetaSignature, properties', () => {
  it('verifies the signature of any bytes made with any of the configured secrets (any hex case, padded)', () => {
    fc.assert(
      fc.property(bytes, secrets, fc.nat(), fc.constantFrom('as-is', 'upper-hex', 'padded'), (body, appSecrets, pick, form) => {
        let header = metaSign(body, appSecrets[pick % appSecrets.length]);
        if (form === 'upper-hex') header = 'sha256=' + header.slice(7).toUpperCase();
        if (form === 'padded') header = ` ${header}\t`;
        expect(checkMetaSignature(body, header, appSecrets)).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses the signature of any other bytes, and a signature by a secret not configured', () => {
    fc.assert(
      fc.property(bytes, bytes, secrets, secret, (body, other, appSecrets, stranger) => {
        fc.pre(!other.equals(body));
        expect(checkMetaSignature(other, metaSign(body, appSecrets[0]), appSecrets)).toBe('mismatch');
        fc.pre(!appSecrets.some((s) => Buffer.from(s).equals(Buffer.from(stranger))));
        expect(checkMetaSignature(body, metaSign(body, stranger), appSecrets)).toBe('mismatch');
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a re-serialized body: JSON.parse then JSON.stringify of a body that differs from its re-serialization', () => {
    fc.assert(
      fc.property(nonCanonicalJson, secrets, (text, appSecrets) => {
        const header = metaSign(Buffer.from(text), appSecrets[0]);
        expect(checkMetaSignature(Buffer.from(text), header, appSecrets)).toBeNull();
        expect(checkMetaSignature(Buffer.from(JSON.stringify(JSON.parse(text))), header, appSecrets)).toBe('mismatch');
      }),
      { numRuns: RUNS },
    );
  });

  it('answers any header string with a reason (or null only for the real signature), never a throw', () => {
    fc.assert(
      fc.property(bytes, fc.option(garbageHeader, { nil: undefined }), secrets, (body, header, appSecrets) => {
        const result = noThrow(() => checkMetaSignature(body, header, appSecrets));
        if (result === null) {
          expect(appSecrets.map((s) => metaSign(body, s))).toContain(header!.trim().toLowerCase());
        } else {
          expect(FAILURES).toContain(result);
        }
        if (!header) expect(result).toBe('missing');
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// WASender: X-Webhook-Signature is the secret itself
// ---------------------------------------------------------------------------------------------

describe('checkSharedSecret, properties', () => {
  it('verifies exactly the configured secrets: null iff the header is one of them', () => {
    fc.assert(
      fc.property(secrets, fc.oneof(secret, headerText(), fc.constant('')), fc.nat(), fc.boolean(), (configured, other, pick, useConfigured) => {
        const header = useConfigured ? configured[pick % configured.length] : other;
        const expected = configured.includes(header) ? null : header === '' ? 'missing' : 'mismatch';
        expect(checkSharedSecret(header, configured)).toBe(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses near-misses of a secret (a prefix, a suffix, a changed case, surrounding space)', () => {
    fc.assert(
      fc.property(secrets, fc.nat(), fc.constantFrom('prefix', 'suffix', 'case', 'space'), (configured, pick, how) => {
        const s = configured[pick % configured.length];
        const variant = how === 'prefix' ? s.slice(0, -1) : how === 'suffix' ? `${s}x` : how === 'case' ? s.toUpperCase() : ` ${s}`;
        fc.pre(variant !== '' && !configured.includes(variant));
        expect(checkSharedSecret(variant, configured)).toBe('mismatch');
      }),
      { numRuns: RUNS },
    );
  });

  it('answers any header string with a reason, never a throw', () => {
    fc.assert(
      fc.property(fc.option(garbageHeader, { nil: undefined }), secrets, (header, configured) => {
        const result = noThrow(() => checkSharedSecret(header, configured));
        expect(result === null || FAILURES.includes(result)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature
// ---------------------------------------------------------------------------------------------

/** A moment, and a signing time within the tolerance of it. */
const clock = fc
  .tuple(fc.integer({ min: 1_600_000_000, max: 4_000_000_000 }), fc.integer({ min: -(TOLERANCE - 1), max: TOLERANCE - 1 }), fc.integer({ min: 0, max: 999 }))
  .map(([nowSeconds, skew, millis]) => ({ nowMs: nowSeconds * 1000 + millis, timestamp: nowSeconds + skew }));

/** The reference signature, written from the spec with node:crypto (independent of signStandardWebhook). */
const v1 = (key: Buffer, id: string, timestamp: number, body: Buffer) =>
  `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest('base64')}`;
const headersOf = (id: string, timestamp: number, signature: string): StandardWebhookHeaders => ({ id, timestamp: String(timestamp), signature });
const whsec = (key: Buffer) => `whsec_${key.toString('base64')}`;

describe('Standard Webhooks, properties', () => {
  it('signingKey decodes whsec_<base64> to its bytes and takes any other secret as UTF-8', () => {
    fc.assert(
      fc.property(keyBytes, secret, (key, plain) => {
        expect(signingKey(whsec(key)).equals(key)).toBe(true);
        fc.pre(!plain.startsWith('whsec_'));
        expect(signingKey(plain).equals(Buffer.from(plain, 'utf8'))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('signs as the spec says: one v1,<base64 HMAC-SHA256 of "id.timestamp.body"> per key, space-separated', () => {
    fc.assert(
      fc.property(keyList, webhookId, fc.integer({ min: 0, max: 999_999_999_999 }), anyText(300), (keys, id, timestamp, body) => {
        expect(signStandardWebhook(keys, id, timestamp, body)).toBe(keys.map((key) => v1(key, id, timestamp, Buffer.from(body))).join(' '));
      }),
      { numRuns: RUNS },
    );
  });

  it('verifies a signature of any bytes made with any of several keys, within the tolerance', () => {
    fc.assert(
      fc.property(keyList, fc.subarray([0, 1, 2, 3], { minLength: 1 }), webhookId, clock, bytes, (keys, picked, id, { nowMs, timestamp }, body) => {
        // The sender signs with some of the keys (a rotation); the receiver holds all of them.
        const signedWith = picked.filter((i) => i < keys.length).map((i) => keys[i]);
        fc.pre(signedWith.length > 0);
        const signature = signedWith.map((key) => v1(key, id, timestamp, body)).join(' ');
        expect(checkStandardWebhook(keys, headersOf(id, timestamp, signature), body, TOLERANCE, nowMs)).toBeNull();
        // Also when the receiver holds only one of the signing keys, and among other versions and junk.
        expect(checkStandardWebhook([signedWith[0]], headersOf(id, timestamp, `v2,abc ${signature} v1a,x v1,`), body, TOLERANCE, nowMs)).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a signature over other bytes, another id or another timestamp, and one made with a key not held', () => {
    const mismatch = { header: 'webhook-signature', reason: 'mismatch' };
    fc.assert(
      fc.property(keyList, keyBytes, webhookId, clock, bytes, bytes, (keys, stranger, id, { nowMs, timestamp }, body, other) => {
        const signature = keys.map((key) => v1(key, id, timestamp, body)).join(' ');
        if (!other.equals(body)) expect(checkStandardWebhook(keys, headersOf(id, timestamp, signature), other, TOLERANCE, nowMs)).toEqual(mismatch);
        expect(checkStandardWebhook(keys, headersOf(`${id}x`, timestamp, signature), body, TOLERANCE, nowMs)).toEqual(mismatch);
        const nearby = timestamp + (timestamp * 1000 < nowMs ? 1 : -1); // still inside the window
        expect(checkStandardWebhook(keys, headersOf(id, nearby, signature), body, TOLERANCE, nowMs)).toEqual(mismatch);
        fc.pre(!keys.some((key) => key.equals(stranger)));
        expect(checkStandardWebhook(keys, headersOf(id, timestamp, v1(stranger, id, timestamp, body)), body, TOLERANCE, nowMs)).toEqual(mismatch);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a re-serialized body', () => {
    fc.assert(
      fc.property(keyList, webhookId, clock, nonCanonicalJson, (keys, id, { nowMs, timestamp }, text) => {
        const signature = signStandardWebhook(keys, id, timestamp, text);
        expect(checkStandardWebhook(keys, headersOf(id, timestamp, signature), Buffer.from(text), TOLERANCE, nowMs)).toBeNull();
        const reserialized = Buffer.from(JSON.stringify(JSON.parse(text)));
        expect(checkStandardWebhook(keys, headersOf(id, timestamp, signature), reserialized, TOLERANCE, nowMs)).toEqual({ header: 'webhook-signature', reason: 'mismatch' });
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses a correctly signed webhook request whose timestamp is outside the tolerance', () => {
    fc.assert(
      fc.property(keyList, webhookId, fc.integer({ min: 1_600_000_000, max: 4_000_000_000 }), fc.integer({ min: TOLERANCE + 1, max: 10 ** 9 }), fc.boolean(), fc.string(), (keys, id, nowSeconds, distance, late, body) => {
        const timestamp = late ? nowSeconds - distance : nowSeconds + distance;
        fc.pre(timestamp >= 0);
        const signature = signStandardWebhook(keys, id, timestamp, body);
        expect(checkStandardWebhook(keys, headersOf(id, timestamp, signature), Buffer.from(body), TOLERANCE, nowSeconds * 1000)).toEqual({ header: 'webhook-timestamp', reason: 'expired' });
      }),
      { numRuns: RUNS },
    );
  });

  it('answers any header strings with a failure naming a header (or null only for a real signature), never a throw', () => {
    const maybe = fc.option(fc.oneof(garbageHeader, fc.stringMatching(/^\d{0,14}$/), fc.constantFrom('1700000000', '-1', '1e9', ' 1700000000', '0x10')), { nil: undefined });
    fc.assert(
      fc.property(keyList, maybe, maybe, maybe, bytes, fc.integer({ min: 0, max: 4_000_000_000_000 }), (keys, id, timestamp, signature, body, nowMs) => {
        const result = noThrow(() => checkStandardWebhook(keys, { id, timestamp, signature }, body, TOLERANCE, nowMs));
        if (result === null) {
          // Only possible when the garbage happens to hold a real signature of these bytes.
          const real = keys.map((key) => v1(key, id!, Number(timestamp), body));
          expect(signature!.split(' ').some((item) => real.includes(item))).toBe(true);
          return;
        }
        expect(['webhook-id', 'webhook-timestamp', 'webhook-signature']).toContain(result.header);
        expect(FAILURES).toContain(result.reason);
        if (!id) expect(result).toEqual({ header: 'webhook-id', reason: 'missing' });
      }),
      { numRuns: RUNS },
    );
  });

  describe('cross-checked against the standardwebhooks package', () => {
    // The package reads a Buffer payload as UTF-8 text, so the bodies here are well-formed text.
    const body = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.json({ stringUnit: 'binary', maxDepth: 3 }), nonCanonicalJson);
    const id = fc.stringMatching(/^msg_[A-Za-z0-9_-]{1,40}$/);
    // The package's fixed window is 5 minutes around its own clock; stay well inside it.
    const skewSeconds = fc.integer({ min: -240, max: 240 });

    it('what the package signs, we verify', () => {
      fc.assert(
        fc.property(keyList, fc.nat(), id, skewSeconds, body, (keys, pick, msgId, skew, payload) => {
          const signingSecret = whsec(keys[pick % keys.length]);
          const at = new Date(Date.now() + skew * 1000);
          const headers = {
            id: msgId,
            timestamp: String(Math.floor(at.getTime() / 1000)),
            signature: new Webhook(signingSecret).sign(msgId, at, payload),
          };
          const ourKeys = keys.map((key) => signingKey(whsec(key)));
          expect(checkStandardWebhook(ourKeys, headers, Buffer.from(payload), TOLERANCE)).toBeNull();
        }),
        { numRuns: RUNS },
      );
    });

    it('what we sign (one signature per key), the package verifies with any one of the keys', () => {
      fc.assert(
        fc.property(keyList, fc.nat(), id, skewSeconds, body, (keys, pick, msgId, skew, payload) => {
          const timestamp = Math.floor(Date.now() / 1000) + skew;
          const signature = signStandardWebhook(keys.map((key) => signingKey(whsec(key))), msgId, timestamp, payload);
          const headers = { 'webhook-id': msgId, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
          const theirs = new Webhook(whsec(keys[pick % keys.length]));
          expect(() => theirs.verify(payload, headers, { jsonParse: false })).not.toThrow();
          expect(() => theirs.verify(Buffer.from(payload), headers, { jsonParse: false })).not.toThrow();
        }),
        { numRuns: RUNS },
      );
    });

    it('a body changed after signing is refused by both', () => {
      fc.assert(
        fc.property(keyBytes, id, body, body, (key, msgId, payload, other) => {
          fc.pre(Buffer.from(payload).compare(Buffer.from(other)) !== 0);
          const at = new Date();
          const timestamp = Math.floor(at.getTime() / 1000);
          const theirs = new Webhook(whsec(key)).sign(msgId, at, payload);
          expect(checkStandardWebhook([key], headersOf(msgId, timestamp, theirs), Buffer.from(other), TOLERANCE)).toEqual({ header: 'webhook-signature', reason: 'mismatch' });
          const ours = signStandardWebhook([key], msgId, timestamp, payload);
          const headers = { 'webhook-id': msgId, 'webhook-timestamp': String(timestamp), 'webhook-signature': ours };
          expect(() => new Webhook(whsec(key)).verify(other, headers, { jsonParse: false })).toThrow('No matching signature found');
        }),
        { numRuns: RUNS },
      );
    });
  });
});
