import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The secrets every test app and service process runs with, unless a test says otherwise. */
export const TEST_SECRETS = {
  WHATSAPP_APP_SECRET: 'meta-app-secret-for-tests',
  WASENDER_WEBHOOK_SECRET: 'wasender-secret-for-tests',
  GENERIC_WEBHOOK_SECRET: `whsec_${Buffer.from('generic-webhook-secret-for-tests').toString('base64')}`,
  TWILIO_AUTH_TOKEN: 'twilio-auth-token-for-tests-0001',
  DIALOG360_PLATFORM_SECRET: '360dialog-platform-secret-for-tests',
  WAHA_WEBHOOK_HMAC_KEY: 'waha-hmac-key-for-tests',
  EVOLUTION_API_KEY: 'EVOLUTION-API-KEY-FOR-TESTS-0001',
  // The URL Twilio is told to call: a proxy in front of the service, as in production.
  PUBLIC_BASE_URL: 'https://hooks.example.test/wa',
};

export const hmacHex = (algorithm: 'sha256' | 'sha512', secret: string, raw: string | Buffer) => createHmac(algorithm, secret).update(raw).digest('hex');

export const metaSignature = (raw: string | Buffer, secret = TEST_SECRETS.WHATSAPP_APP_SECRET) =>
  'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');

/**
 * Standard Webhooks headers made by the spec's own library (`standardwebhooks`), not by the
 * service's code: what a real sender's signature looks like.
 */
export function standardWebhookHeaders(
  raw: string,
  secret = TEST_SECRETS.GENERIC_WEBHOOK_SECRET,
  { id = `msg_${randomUUID()}`, at = new Date() }: { id?: string; at?: Date } = {},
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, raw),
  };
}

/** Every source's signature for these bytes, each made with the test secrets: each source reads only its own. */
export function signedForEverySource(raw: string): Record<string, string> {
  return {
    'x-hub-signature-256': metaSignature(raw),
    'x-webhook-signature': TEST_SECRETS.WASENDER_WEBHOOK_SECRET,
    ...standardWebhookHeaders(raw),
    'x-360dialog-signature': hmacHex('sha256', TEST_SECRETS.DIALOG360_PLATFORM_SECRET, raw),
    'x-webhook-hmac': hmacHex('sha512', TEST_SECRETS.WAHA_WEBHOOK_HMAC_KEY, raw),
    'x-webhook-hmac-algorithm': 'sha512',
    authorization: `Bearer ${TEST_SECRETS.EVOLUTION_API_KEY}`,
  };
}

/**
 * X-Twilio-Signature as Twilio makes it, by the official `twilio` package: over the public URL
 * it called (PUBLIC_BASE_URL + path) and the form parameters; with `sharedKey`, the SHA-256
 * variant announced by X-Twilio-Webhooks-Signature-Settings.
 */
export async function twilioHeaders(
  path: string,
  params: Record<string, string>,
  { token = TEST_SECRETS.TWILIO_AUTH_TOKEN, baseUrl = TEST_SECRETS.PUBLIC_BASE_URL, sharedKey }: { token?: string; baseUrl?: string; sharedKey?: string } = {},
): Promise<Record<string, string>> {
  const { getExpectedTwilioSignature } = (await import('twilio/lib/webhooks/webhooks.js')) as typeof import('twilio/lib/webhooks/webhooks.js');
  const url = `${baseUrl}${path}`;
  if (sharedKey === undefined) return { 'x-twilio-signature': getExpectedTwilioSignature(token, url, params) };
  return {
    'x-twilio-signature': getExpectedTwilioSignature(sharedKey, url, params, 'HMAC_SHA256'),
    'x-twilio-webhooks-signature-settings': 'key=webhooks_sharedkey_test,algorithm=HMAC_SHA256',
  };
}
