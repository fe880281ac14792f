import { createHmac } from 'node:crypto';
import { checkMetaSignature, checkWasenderSignature, safeEqual } from './signatures.js';

describe('checkMetaSignature', () => {
  const body = Buffer.from('{"text":"caf\\u00e9"}');
  const signed = 'sha256=' + createHmac('sha256', 'app-secret').update(body).digest('hex');

  it('accepts the HMAC of the exact bytes, in either hex case, with any configured secret', () => {
    expect(checkMetaSignature(body, signed, ['app-secret'])).toBeNull();
    expect(checkMetaSignature(body, signed.toUpperCase().replace('SHA256=', 'sha256='), ['app-secret'])).toBeNull();
    expect(checkMetaSignature(body, signed, ['new-app-secret', 'app-secret'])).toBeNull();
  });

  it('tells a missing, a malformed and a wrong signature apart', () => {
    expect(checkMetaSignature(body, undefined, ['app-secret'])).toBe('missing');
    expect(checkMetaSignature(body, 'sha256=zz', ['app-secret'])).toBe('malformed');
    expect(checkMetaSignature(body, signed.slice('sha256='.length), ['app-secret'])).toBe('malformed');
    expect(checkMetaSignature(Buffer.from('{"text":"café"}'), signed, ['app-secret'])).toBe('mismatch');
    expect(checkMetaSignature(body, signed, ['other-secret'])).toBe('mismatch');
  });
});

describe('checkWasenderSignature', () => {
  it('compares against every configured secret exactly', () => {
    expect(checkWasenderSignature('s3cret-value', ['s3cret-value'])).toBeNull();
    expect(checkWasenderSignature('s3cret-value', ['n3w-secret-value', 's3cret-value'])).toBeNull();
    expect(checkWasenderSignature('s3cret-valu', ['s3cret-value'])).toBe('mismatch');
    expect(checkWasenderSignature(undefined, ['s3cret-value'])).toBe('missing');
    expect(safeEqual('', '')).toBe(true);
  });
});
