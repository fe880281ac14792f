import { createHmac } from 'node:crypto';
import type { NormalizedEvent } from '../../events/normalized-event.js';
import { buildForwardRequest, headerSafeKey, retryAfterMs } from './forward-request.js';

const event: NormalizedEvent = {
  key: 'meta:msg:wamid.ABC',
  provider: 'meta',
  kind: 'message',
  type: 'text',
  sender: '15551234567',
  providerTimestamp: new Date('2026-11-29T10:00:00Z'),
  fromMe: false,
  raw: { message: { id: 'wamid.ABC', text: { body: 'héllo' } } },
};
const receivedAt = new Date('2026-11-29T10:00:01.500Z');

describe('buildForwardRequest', () => {
  it('sends the normalized event with the key as Idempotency-Key and an HMAC of the exact body', () => {
    const { body, headers } = buildForwardRequest(event, receivedAt, 1, 'forward-secret');
    expect(JSON.parse(body)).toEqual({
      id: 'meta:msg:wamid.ABC', provider: 'meta', kind: 'message', type: 'text', from: '15551234567', fromMe: false,
      timestamp: '2026-11-29T10:00:00.000Z', receivedAt: '2026-11-29T10:00:01.500Z', payload: event.raw,
    });
    expect(headers['idempotency-key']).toBe('meta:msg:wamid.ABC');
    const expected = createHmac('sha256', 'forward-secret').update(Buffer.from(body, 'utf8')).digest('hex');
    expect(headers['x-signature-256']).toBe(`sha256=${expected}`);
  });

  it('keeps the body identical across attempts; only the attempt header changes', () => {
    const first = buildForwardRequest(event, receivedAt, 1, 'forward-secret');
    const third = buildForwardRequest(event, receivedAt, 3, 'forward-secret');
    expect(third.body).toBe(first.body);
    expect(third.headers['x-signature-256']).toBe(first.headers['x-signature-256']);
    expect([first.headers['x-delivery-attempt'], third.headers['x-delivery-attempt']]).toEqual(['1', '3']);
  });

  it('does not sign without a secret', () => {
    expect(buildForwardRequest(event, receivedAt, 1).headers).not.toHaveProperty('x-signature-256');
  });
});

describe('headerSafeKey', () => {
  it('passes printable ASCII keys through and percent-encodes anything a header cannot carry', () => {
    expect(headerSafeKey('wasender:msg:3EB0C767D82B')).toBe('wasender:msg:3EB0C767D82B');
    expect(headerSafeKey('generic:msg:order 7/ü')).toBe('generic%3Amsg%3Aorder%207%2F%C3%BC');
    expect(decodeURIComponent(headerSafeKey('generic:msg:a\nb'))).toBe('generic:msg:a\nb');
  });
});

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP dates', () => {
    expect(retryAfterMs('30')).toBe(30_000);
    const now = Date.parse('2026-11-29T10:00:00Z');
    expect(retryAfterMs('Sun, 29 Nov 2026 10:00:05 GMT', now)).toBe(5000);
  });

  it('ignores absent or unreadable values', () => {
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
