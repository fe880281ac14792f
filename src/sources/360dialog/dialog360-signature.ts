import { createHmac } from 'node:crypto';
import { safeEqual } from '../../common/safe-equal.js';
import type { SignatureFailure } from '../shared/signatures.js';

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

/**
 * 360dialog's x-360dialog-signature: the HMAC-SHA256 of the body keyed by the partner's
 * platform secret. Its documentation does not fix the encoding, so hex (either case, with or
 * without `sha256=`) and base64 are both read; either way the digest is compared in constant time.
 */
export function check360dialogSignature(rawBody: Buffer, header: string | undefined, secrets: readonly string[]): SignatureFailure | null {
  if (!header) return 'missing';
  const digest = dialog360Digest(header);
  if (digest === null) return 'malformed';
  const matches = secrets.map((secret) => safeEqual(digest, createHmac('sha256', secret).update(rawBody).digest('hex')));
  return matches.includes(true) ? null : 'mismatch';
}

/** The hex digest an x-360dialog-signature value carries, or null when it cannot be one. */
function dialog360Digest(header: string): string | null {
  const offered = header.trim().replace(/^sha256=/i, '');
  if (HEX_SHA256.test(offered.toLowerCase())) return offered.toLowerCase();
  return BASE64_SHA256.test(offered) ? Buffer.from(offered, 'base64').toString('hex') : null;
}

/** Whether an x-360dialog-signature value can be one (hex or base64 SHA-256, `sha256=` optional). */
export const is360dialogSignature = (header: string) => dialog360Digest(header) !== null;
