import { createHmac } from 'node:crypto';
import { check360dialogSignature, checkMetaSignature, checkSharedSecret, safeEqual } from './signatures.js';

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

describe('checkSharedSecret', () => {
  it('compares against every configured secret exactly', () => {
    expect(checkSharedSecret('s3cret-value', ['s3cret-value'])).toBeNull();
    expect(checkSharedSecret('s3cret-value', ['n3w-secret-value', 's3cret-value'])).toBeNull();
    expect(checkSharedSecret('s3cret-valu', ['s3cret-value'])).toBe('mismatch');
    expect(checkSharedSecret(undefined, ['s3cret-value'])).toBe('missing');
    expect(safeEqual('', '')).toBe(true);
  });
});

describe('check360dialogSignature', () => {
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
  const hex = createHmac('sha256', 'platform-secret').update(body).digest('hex');
  const base64 = Buffer.from(hex, 'hex').toString('base64');

  it('accepts the HMAC-SHA256 of the exact bytes in hex (any case, optional sha256=) or base64, with any configured secret', () => {
    for (const header of [hex, hex.toUpperCase(), `sha256=${hex}`, base64]) expect(check360dialogSignature(body, header, ['platform-secret'])).toBeNull();
    expect(check360dialogSignature(body, hex, ['next-secret', 'platform-secret'])).toBeNull();
  });

  it('tells a missing, a malformed and a wrong signature apart', () => {
    expect(check360dialogSignature(body, undefined, ['platform-secret'])).toBe('missing');
    expect(check360dialogSignature(body, 'abc', ['platform-secret'])).toBe('malformed');
    expect(check360dialogSignature(Buffer.from(`${body} `), hex, ['platform-secret'])).toBe('mismatch');
    expect(check360dialogSignature(body, base64, ['other-secret'])).toBe('mismatch');
  });
});
