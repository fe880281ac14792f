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
  if (!META_SIGNATURE.test(offered)) return 'malformed';
  const matches = appSecrets.map((secret) => safeEqual(offered, 'sha256=' + createHmac('sha256', secret).update(rawBody).digest('hex')));
  return matches.includes(true) ? null : 'mismatch';
}

/** WASenderApi sends the configured webhook secret itself in X-Webhook-Signature. */
export function checkWasenderSignature(header: string | undefined, secrets: readonly string[]): SignatureFailure | null {
  if (!header) return 'missing';
  // Every secret is compared (no early exit), so timing does not tell which one matched.
  return secrets.map((secret) => safeEqual(header, secret)).includes(true) ? null : 'mismatch';
}
