import { safeEqual } from '../../common/safe-equal.js';

/** Why a webhook request's signature was refused; a metric label and part of the 401's reason. */
export type SignatureFailure = 'missing' | 'malformed' | 'expired' | 'mismatch';

/**
 * A secret sent as it is, in a header: WASenderApi's X-Webhook-Signature, the custom header a
 * 360dialog partner sets on its webhook URL.
 */
export function checkSharedSecret(header: string | undefined, secrets: readonly string[]): SignatureFailure | null {
  if (!header) return 'missing';
  // Every secret is compared (no early exit), so timing does not tell which one matched.
  return secrets.map((secret) => safeEqual(header, secret)).includes(true) ? null : 'mismatch';
}
