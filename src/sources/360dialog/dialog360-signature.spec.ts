import { createHmac } from 'node:crypto';
import { check360dialogSignature } from './dialog360-signature.js';

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
