import { createHmac } from 'node:crypto';
import { safeEqual } from '../../common/safe-equal.js';
import type { SignatureFailure } from '../shared/signatures.js';

/** The only algorithm WAHA signs with (DEFAULT_HMAC_ALGORITHM in its webhook sender). */
const WAHA_ALGORITHM = 'sha512';
const WAHA_HMAC = /^[0-9a-f]{128}$/;

/** Whether an X-Webhook-Hmac value can be one: 128 hex digits. */
export const isWahaHmac = (hmac: string) => WAHA_HMAC.test(hmac.trim().toLowerCase());

/**
 * WAHA's X-Webhook-Hmac: hex HMAC-SHA512, keyed with the webhook's `hmac.key`, of the body
 * exactly as sent (WAHA posts the very string it signed). X-Webhook-Hmac-Algorithm names the
 * algorithm; an absent or blank one is taken as sha512, anything else is not a WAHA signature.
 * Any of `secrets` may have made it (rotation). Null when one did.
 *
 * Nothing here can be `expired`: WAHA does not sign its X-Webhook-Timestamp header, so the header
 * proves nothing about freshness (the signed body's own timestamp feeds the stale guard).
 */
export function checkWahaSignature(
  rawBody: Buffer,
  hmac: string | undefined,
  algorithm: string | undefined,
  secrets: readonly string[],
): SignatureFailure | null {
  if (!hmac) return 'missing';
  const named = algorithm?.trim().toLowerCase() ?? '';
  if (named !== '' && named !== WAHA_ALGORITHM) return 'malformed';
  const offered = hmac.trim().toLowerCase();
  if (!isWahaHmac(offered)) return 'malformed';
  // Every secret is compared (no early exit), so timing does not tell which one matched.
  const matches = secrets.map((secret) => safeEqual(offered, createHmac(WAHA_ALGORITHM, secret).update(rawBody).digest('hex')));
  return matches.includes(true) ? null : 'mismatch';
}
