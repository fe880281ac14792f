import { createHmac } from 'node:crypto';
import { safeEqual } from '../common/safe-equal.js';

export { safeEqual };

/**
 * Meta's X-Hub-Signature-256: `sha256=` + hex HMAC-SHA256 of the request bytes exactly as
 * received (Meta signs an escaped-unicode body; re-serialized JSON would hash differently).
 */
export function isValidMetaSignature(rawBody: Buffer, header: string | undefined, appSecret: string): boolean {
  if (!header) return false;
  const expected = 'sha256=' + createHmac('sha256', appSecret).update(rawBody).digest('hex');
  return safeEqual(header.trim().toLowerCase(), expected);
}

/** WASenderApi sends the configured webhook secret itself in X-Webhook-Signature. */
export function isValidWasenderSignature(header: string | undefined, secret: string): boolean {
  return header !== undefined && safeEqual(header, secret);
}
