import { createHmac } from 'node:crypto';
import { isValidMetaSignature, isValidWasenderSignature, safeEqual } from './signatures.js';

describe('signatures', () => {
  const body = Buffer.from('{"text":"caf\\u00e9"}');
  const signed = 'sha256=' + createHmac('sha256', 'app-secret').update(body).digest('hex');

  it('accepts the HMAC of the exact bytes, in either hex case', () => {
    expect(isValidMetaSignature(body, signed, 'app-secret')).toBe(true);
    expect(isValidMetaSignature(body, signed.toUpperCase().replace('SHA256=', 'sha256='), 'app-secret')).toBe(true);
  });

  it('rejects other bytes, another secret, a bare digest and a missing header', () => {
    expect(isValidMetaSignature(Buffer.from('{"text":"café"}'), signed, 'app-secret')).toBe(false);
    expect(isValidMetaSignature(body, signed, 'other-secret')).toBe(false);
    expect(isValidMetaSignature(body, signed.slice('sha256='.length), 'app-secret')).toBe(false);
    expect(isValidMetaSignature(body, undefined, 'app-secret')).toBe(false);
  });

  it('compares the WASender secret exactly', () => {
    expect(isValidWasenderSignature('s3cret-value', 's3cret-value')).toBe(true);
    expect(isValidWasenderSignature('s3cret-valu', 's3cret-value')).toBe(false);
    expect(isValidWasenderSignature(undefined, 's3cret-value')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});
