import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signingKey } from '../common/standard-webhooks.js';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import { buildForwardRequest, headerSafeKey, retryAfterMs } from './forward-request.js';

const event: NormalizedEvent = {
  key: 'meta:msg:wamid.ABC',
  source: 'meta',
  kind: 'message',
  type: 'text',
  sender: '15551234567',
  userId: null,
  tenant: '106540352242922',
  providerTimestamp: new Date('2026-11-29T10:00:00Z'),
  fromMe: false, authenticated: true,
  raw: { message: { id: 'wamid.ABC', text: { body: 'héllo' } } },
};
const receivedAt = new Date('2026-11-29T10:00:01.500Z');

const KEY = signingKey('forward-secret');
const at = (attempt: number, replay = 0) => ({ receivedAt, attempt, replay });
const verifyWith = (secret: string, { body, headers }: { body: string; headers: Record<string, string> }) =>
  new Webhook(secret).verify(body, headers);

describe('buildForwardRequest', () => {
  it('sends the normalized event with the key as Idempotency-Key and an HMAC of the exact body', () => {
    const { body, headers } = buildForwardRequest(event, at(1), [KEY]);
    expect(JSON.parse(body)).toEqual({
      id: 'meta:msg:wamid.ABC', provider: 'meta', kind: 'message', type: 'text', from: '15551234567', fromUserId: null, tenant: '106540352242922', fromMe: false, authenticated: true,
      timestamp: '2026-11-29T10:00:00.000Z', receivedAt: '2026-11-29T10:00:01.500Z', replay: 0, payload: event.raw,
    });
    expect(headers['idempotency-key']).toBe('meta:msg:wamid.ABC');
    const expected = createHmac('sha256', 'forward-secret').update(Buffer.from(body, 'utf8')).digest('hex');
    expect(headers['x-signature-256']).toBe(`sha256=${expected}`);
  });

  it('carries Standard Webhooks headers that the standardwebhooks package verifies', () => {
    const whsec = `whsec_${randomBytes(32).toString('base64')}`;
    const request = buildForwardRequest(event, at(1), [signingKey(whsec)]);
    expect(request.headers['webhook-id']).toBe('meta:msg:wamid.ABC');
    expect(Number(request.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(verifyWith(whsec, request)).toMatchObject({ id: 'meta:msg:wamid.ABC' });
    // A plain secret signs with its UTF-8 bytes: receivers pass whsec_ + base64 of them.
    const plain = buildForwardRequest(event, at(1), [KEY]);
    expect(verifyWith(`whsec_${Buffer.from('forward-secret').toString('base64')}`, plain)).toBeTruthy();
    expect(() => verifyWith(`whsec_${randomBytes(32).toString('base64')}`, plain)).toThrow(/signature/);
  });

  it('signs with every configured secret, so receivers holding the old or the new one verify during a rotation', () => {
    const [oldSecret, newSecret] = [randomBytes(32), randomBytes(32)].map((b) => `whsec_${b.toString('base64')}`);
    const request = buildForwardRequest(event, at(1), [signingKey(newSecret), signingKey(oldSecret)]);
    expect(request.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWith(oldSecret, request)).toBeTruthy();
    expect(verifyWith(newSecret, request)).toBeTruthy();
  });

  it('keeps the body and both keys identical across attempts; only the attempt header changes', () => {
    const first = buildForwardRequest(event, at(1), [KEY]);
    const third = buildForwardRequest(event, at(3), [KEY]);
    expect(third.body).toBe(first.body);
    expect(third.headers['x-signature-256']).toBe(first.headers['x-signature-256']);
    expect([third.headers['idempotency-key'], third.headers['webhook-id']]).toEqual([first.headers['idempotency-key'], first.headers['webhook-id']]);
    expect([first.headers['x-delivery-attempt'], third.headers['x-delivery-attempt']]).toEqual(['1', '3']);
    expect(first.headers).not.toHaveProperty('x-replay');
  });

  it('gives a replay from the start a key of its own in both headers, and says which replay it is', () => {
    const replay = buildForwardRequest(event, at(1, 2), [KEY]);
    expect(replay.headers['idempotency-key']).toBe('meta:msg:wamid.ABC:replay-2');
    expect(replay.headers['webhook-id']).toBe('meta:msg:wamid.ABC:replay-2');
    expect(replay.headers['x-replay']).toBe('2');
    expect(JSON.parse(replay.body)).toMatchObject({ id: 'meta:msg:wamid.ABC', replay: 2 });
  });

  it('does not sign without a secret', () => {
    const { headers } = buildForwardRequest(event, at(1), []);
    expect(headers).not.toHaveProperty('x-signature-256');
    expect(headers).not.toHaveProperty('webhook-signature');
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
