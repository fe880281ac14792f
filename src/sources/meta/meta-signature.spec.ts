import { createHmac } from 'node:crypto';
import { checkMetaSignature } from './meta-signature.js';

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
