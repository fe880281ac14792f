import { createHmac, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The secrets every test app and service process runs with, unless a test says otherwise. */
export const TEST_SECRETS = {
  WHATSAPP_APP_SECRET: 'meta-app-secret-for-tests',
  WASENDER_WEBHOOK_SECRET: 'wasender-secret-for-tests',
  GENERIC_WEBHOOK_SECRET: `whsec_${Buffer.from('generic-webhook-secret-for-tests').toString('base64')}`,
};

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
  };
}
