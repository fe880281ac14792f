import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { checkWahaSignature } from './waha-signature.js';

/** The example of WAHA's docs (https://waha.devlike.pro/docs/how-to/events/#hmac-authentication). */
const DOCS_BODY = Buffer.from('{"event":"message","session":"default","engine":"WEBJS"}');
const DOCS_KEY = 'my-secret-key';
const DOCS_HMAC =
  '208f8a55dde9e05519e898b10b89bf0d0b3b0fdf11fdbf09b6b90476301b98d8097c462b2b17a6ce93b6b47a136cf2e78a33a63f6752c2c1631777076153fa89';

const sign = (body: Buffer, key: string, algorithm = 'sha512') => createHmac(algorithm, key).update(body).digest('hex');

describe('checkWahaSignature', () => {
  it('accepts the documented example, with or without the algorithm header', () => {
    expect(checkWahaSignature(DOCS_BODY, DOCS_HMAC, 'sha512', [DOCS_KEY])).toBeNull();
    expect(checkWahaSignature(DOCS_BODY, DOCS_HMAC, undefined, [DOCS_KEY])).toBeNull();
    expect(checkWahaSignature(DOCS_BODY, DOCS_HMAC, '', [DOCS_KEY])).toBeNull();
    expect(checkWahaSignature(DOCS_BODY, ` ${DOCS_HMAC.toUpperCase()} `, ' SHA512 ', [DOCS_KEY])).toBeNull();
  });

  it('accepts a fixture body signed byte for byte', () => {
    const body = readFileSync(new URL('../../../test/fixtures/waha/message_text.json', import.meta.url));
    expect(checkWahaSignature(body, sign(body, 'webhook-key'), 'sha512', ['webhook-key'])).toBeNull();
  });

  it('refuses a forged body, a forged signature and another key', () => {
    const altered = Buffer.from('{"event":"message","session":"default","engine":"NOWEB"}');
    expect(checkWahaSignature(altered, DOCS_HMAC, 'sha512', [DOCS_KEY])).toBe('mismatch');
    expect(checkWahaSignature(DOCS_BODY, sign(DOCS_BODY, 'guessed-key'), 'sha512', [DOCS_KEY])).toBe('mismatch');
    expect(checkWahaSignature(DOCS_BODY, DOCS_HMAC.replace(/^2/, '3'), 'sha512', [DOCS_KEY])).toBe('mismatch');
    expect(checkWahaSignature(DOCS_BODY, DOCS_HMAC, 'sha512', [])).toBe('mismatch');
  });

  it('tells a missing signature apart', () => {
    expect(checkWahaSignature(DOCS_BODY, undefined, 'sha512', [DOCS_KEY])).toBe('missing');
    expect(checkWahaSignature(DOCS_BODY, '', undefined, [DOCS_KEY])).toBe('missing');
  });

  it('refuses another algorithm and a value that is not a SHA-512 hex digest as malformed', () => {
    expect(checkWahaSignature(DOCS_BODY, sign(DOCS_BODY, DOCS_KEY, 'sha256'), 'sha256', [DOCS_KEY])).toBe('malformed');
    expect(checkWahaSignature(DOCS_BODY, DOCS_HMAC, 'sha256', [DOCS_KEY])).toBe('malformed');
    expect(checkWahaSignature(DOCS_BODY, sign(DOCS_BODY, DOCS_KEY, 'sha256'), undefined, [DOCS_KEY])).toBe('malformed');
    expect(checkWahaSignature(DOCS_BODY, `sha512=${DOCS_HMAC}`, 'sha512', [DOCS_KEY])).toBe('malformed');
    expect(checkWahaSignature(DOCS_BODY, DOCS_HMAC.replace(/^2/, 'z'), 'sha512', [DOCS_KEY])).toBe('malformed');
  });

  it('accepts a signature by any configured key, for rotation', () => {
    expect(checkWahaSignature(DOCS_BODY, DOCS_HMAC, 'sha512', ['new-secret-key', DOCS_KEY])).toBeNull();
    expect(checkWahaSignature(DOCS_BODY, sign(DOCS_BODY, 'new-secret-key'), 'sha512', ['new-secret-key', DOCS_KEY])).toBeNull();
    expect(checkWahaSignature(DOCS_BODY, sign(DOCS_BODY, 'retired-key'), 'sha512', ['new-secret-key', DOCS_KEY])).toBe('mismatch');
  });
});
