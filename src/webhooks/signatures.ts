import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time string comparison. Both sides are hashed first so neither the content nor the
 * length of the expected value leaks through timing.
 */
export function safeEqual(actual: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(actual), digest(expected));
}

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
