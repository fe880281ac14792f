import { redactPhoneNumbers } from './redact.js';

describe('redactPhoneNumbers', () => {
  it('keeps only the last two digits of anything that may be a phone number', () => {
    expect(redactPhoneNumbers('wasender:receipt:3EB0A1:read:+4915123456789@s.whatsapp.net')).toBe(
      'wasender:receipt:3EB0A1:read:…89@s.whatsapp.net',
    );
    expect(redactPhoneNumbers('meta:status:wamid.HBgL:read:16505551234')).toBe('meta:status:wamid.HBgL:read:…34');
  });

  it('leaves short numbers (status codes, attempts) alone', () => {
    expect(redactPhoneNumbers('FORWARD_URL answered 503 on attempt 12')).toBe('FORWARD_URL answered 503 on attempt 12');
  });

  it('keeps migration names readable, but not a number that merely resembles one', () => {
    expect(redactPhoneNumbers('applying migration 20261129000000_init')).toBe('applying migration 20261129000000_init');
    expect(redactPhoneNumbers('x 20261329000000_init')).toBe('x …00_init');
    expect(redactPhoneNumbers('x 2026112900000012_y')).toBe('x …12_y');
    expect(redactPhoneNumbers('x 20261129000000@s.whatsapp.net')).toBe('x …00@s.whatsapp.net');
  });
});
