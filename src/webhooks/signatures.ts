import { createHmac } from 'node:crypto';
import { safeEqual } from '../common/safe-equal.js';

export { safeEqual };

/** Why a delivery's signature was refused; a metric label and part of the 401's reason. */
export type SignatureFailure = 'missing' | 'malformed' | 'expired' | 'mismatch';

const META_SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/**
 * Meta's X-Hub-Signature-256: `sha256=` + hex HMAC-SHA256 of the request bytes exactly as
 * received (Meta signs an escaped-unicode body; re-serialized JSON would hash differently).
 * Any of `appSecrets` may have made it (rotation). Null when one did.
 */
export function checkMetaSignature(rawBody: Buffer, header: string | undefined, appSecrets: readonly string[]): SignatureFailure | null {
  if (!header) return 'missing';
  const offered = header.trim().toLowerCase();
  if (!isMetaSignature(offered)) return 'malformed';
  const matches = appSecrets.map((secret) => safeEqual(offered, 'sha256=' + createHmac('sha256', secret).update(rawBody).digest('hex')));
  return matches.includes(true) ? null : 'mismatch';
}

/** Whether an X-Hub-Signature-256 value can be one: `sha256=` and 64 hex digits. */
export const isMetaSignature = (header: string) => META_SIGNATURE.test(header.trim().toLowerCase());

/**
 * A secret sent as it is, in a header: WASenderApi's X-Webhook-Signature, the custom header a
 * 360dialog partner sets on its webhook URL.
 */
export function checkSharedSecret(header: string | undefined, secrets: readonly string[]): SignatureFailure | null {
  if (!header) return 'missing';
  // Every secret is compared (no early exit), so timing does not tell which one matched.
  return secrets.map((secret) => safeEqual(header, secret)).includes(true) ? null : 'mismatch';
}

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
