import { safeEqual } from '../../common/safe-equal.js';
import type { SignatureFailure } from '../shared/signatures.js';

const BEARER = /^\s*bearer(?:\s+|$)/i;

/**
 * Evolution API signs nothing. What it can send is a credential itself: the instance's API key
 * as the body's `apikey` (v2, when AUTHENTICATION_EXPOSE_IN_FETCH_INSTANCES is on; null when
 * off), and a header an operator configured on the instance's webhook (`headers`), as is or as
 * `Bearer <token>`. Either equal to one of `keys` proves the origin. Every offer is compared with
 * every key (no early exit), so timing does not tell which key, or which offer, matched.
 */
export function checkEvolutionApiKey(
  bodyApiKey: unknown,
  headerToken: string | undefined,
  keys: readonly string[],
): SignatureFailure | null {
  // Evolution sends a string or null; anything else did not come from it.
  if (bodyApiKey !== undefined && bodyApiKey !== null && typeof bodyApiKey !== 'string') return 'malformed';
  const offers = [bodyApiKey, headerToken?.replace(BEARER, '').trim()].filter(
    (offer): offer is string => typeof offer === 'string' && offer !== '',
  );
  if (offers.length === 0) return 'missing';
  const matches = offers.flatMap((offer) => keys.map((key) => safeEqual(offer, key)));
  return matches.includes(true) ? null : 'mismatch';
}
