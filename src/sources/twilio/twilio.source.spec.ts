import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { InvalidPayloadError, SignatureError } from '../../common/domain-errors.js';
import { FORM_BODY } from '../body-formats.js';
import type { WebhookRequest } from '../webhook-request.js';
import { TwilioSource, idempotencyTokenOf, type TwilioVerification } from './twilio.source.js';
import type { TwilioSettings } from './twilio.settings.js';

const TOKEN = 'auth-token-0123456789abcdef012345';
const BASE = 'https://hooks.example.com/wa';
const config = (tokens: string[]) => ({ TWILIO_AUTH_TOKEN: tokens, TWILIO_WEBHOOK_SHARED_KEY: [], PUBLIC_BASE_URL: BASE }) as unknown as TwilioSettings;
const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/twilio/${name}.txt`, import.meta.url), 'utf8').trim();

/** A webhook request as the ingress hands it over: the form decoded by FORM_BODY, signed by twilio-node over what Twilio sent. */
function request(text: string, headers: Record<string, string> = {}, signedText = text): WebhookRequest {
  const signed = Object.fromEntries(new URLSearchParams(signedText));
  const all: Record<string, string> = { 'x-twilio-signature': getExpectedTwilioSignature(TOKEN, `${BASE}/webhook/twilio`, signed), ...headers };
  return { body: FORM_BODY.decode(text), rawBody: Buffer.from(text), header: (name) => all[name], url: '/webhook/twilio', urlSuffix: '' };
}

describe('TwilioSource', () => {
  const source = new TwilioSource(config([TOKEN]));

  it('parses the very parameters it verified, never the body again', () => {
    const inbound = request(fixture('inbound_text'));
    const verification = source.verify(inbound);
    expect(verification).toMatchObject({ authenticated: true });
    expect(Object.isFrozen(verification.params)).toBe(true);
    // Whatever the body holds by the time it is parsed, the event is made of the verified parameters.
    const [event] = source.parse({ ...inbound, body: { MessageSid: 'SM00000000000000000000000000000000', MessageStatus: 'read' } }, verification);
    expect(event).toMatchObject({ key: 'twilio:msg:SM785e4efec1a40db18dae69ffd4dd1db1', kind: 'message', authenticated: true });
    expect(event!.raw).toEqual(verification.params);
    expect(() => source.parse(inbound, { authenticated: true })).toThrow('parsed only from the parameters verify() returned');
  });

  it('canonicalizes without a credential too: unauthenticated webhook requests are parsed the same way', () => {
    const open = new TwilioSource(config([]));
    const verification: TwilioVerification = open.verify(request(fixture('status_read')));
    expect(verification.authenticated).toBe(false);
    expect(open.parse(request(fixture('status_read')), verification)[0]).toMatchObject({ kind: 'status', type: 'read', authenticated: false });
  });

  it('refuses a repeated single-valued parameter with a 400 naming it, before any signature is computed', () => {
    const text = fixture('status_delivered');
    const tampered = request(`${text}&MessageStatus=delivered&SmsStatus=delivered`, {}, text);
    const header = jest.spyOn(tampered, 'header');
    expect(() => source.verify(tampered)).toThrow(new InvalidPayloadError('MessageStatus is repeated: Twilio sends it once'));
    expect(header).not.toHaveBeenCalled();
    expect(() => source.verify(request(text, { 'x-twilio-signature': 'AAAA' }))).toThrow(SignatureError);
  });

  it('logs a well-formed I-Twilio-Idempotency-Token with the event keys, and nothing that is not one', () => {
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    try {
      const retried = request(fixture('status_sent'), { 'i-twilio-idempotency-token': '1ca1c0b9-3f0a-4b2e-9a54-6e1c2b1d7f00' });
      source.parse(retried, source.verify(retried));
      expect(debug).toHaveBeenCalledWith('Twilio request 1ca1c0b9-3f0a-4b2e-9a54-6e1c2b1d7f00: twilio:status:SM2e1dc2acac3ecc979e5daa9706548be1:sent');
      debug.mockClear();
      const forged = request(fixture('status_sent'), { 'i-twilio-idempotency-token': 'x\nFAKE LOG LINE' });
      source.parse(forged, source.verify(forged));
      expect(debug).not.toHaveBeenCalled();
    } finally {
      debug.mockRestore();
    }
  });

  it('takes only short tokens of id characters', () => {
    expect(idempotencyTokenOf('abc-123_.:X')).toBe('abc-123_.:X');
    for (const bad of [undefined, '', 'a b', 'a\r\nb', 'x'.repeat(129), 'é']) expect(idempotencyTokenOf(bad)).toBeNull();
  });
});
