import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com) signatures: `webhook-signature` holds
 * space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`.
 * Written here rather than taken from the `standardwebhooks` package because the service needs
 * what it does not offer: several secrets (rotation), a configurable tolerance, and a reason
 * per failure that names the header. The package is the reference the tests verify against.
 */

const PREFIX = 'whsec_';

/** The HMAC key of a secret: the decoded bytes of `whsec_<base64>`, else the secret's UTF-8 bytes. */
export function signingKey(secret: string): Buffer {
  return secret.startsWith(PREFIX) ? Buffer.from(secret.slice(PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

function signature(key: Buffer, id: string, timestamp: number, body: string | Buffer): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

/** The `webhook-signature` value: one `v1,` signature per key, so receivers holding any of them verify. */
export function signStandardWebhook(keys: readonly Buffer[], id: string, timestamp: number, body: string): string {
  return keys.map((key) => `v1,${signature(key, id, timestamp, body).toString('base64')}`).join(' ');
}

export interface StandardWebhookHeaders {
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
}

export type StandardWebhookFailure = { header: 'webhook-id' | 'webhook-timestamp' | 'webhook-signature'; reason: 'missing' | 'malformed' | 'expired' | 'mismatch' };

/** Null when one v1 signature matches one key over the exact bytes and the timestamp is within tolerance. */
export function checkStandardWebhook(
  keys: readonly Buffer[],
  headers: StandardWebhookHeaders,
  body: Buffer,
  toleranceSeconds: number,
  nowMs = Date.now(),
): StandardWebhookFailure | null {
  for (const header of ['id', 'timestamp', 'signature'] as const) {
    if (!headers[header]) return { header: `webhook-${header}`, reason: 'missing' };
  }
  if (!/^\d{1,12}$/.test(headers.timestamp!)) return { header: 'webhook-timestamp', reason: 'malformed' };
  const timestamp = Number(headers.timestamp);
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) return { header: 'webhook-timestamp', reason: 'expired' };
  const offered = headers.signature!
    .split(' ')
    .filter((item) => item.startsWith('v1,'))
    .map((item) => Buffer.from(item.slice(3), 'base64'));
  if (offered.length === 0) return { header: 'webhook-signature', reason: 'malformed' };
  for (const key of keys) {
    const expected = signature(key, headers.id!, timestamp, body);
    if (offered.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))) return null;
  }
  return { header: 'webhook-signature', reason: 'mismatch' };
}
