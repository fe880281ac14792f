import { createHmac } from 'node:crypto';
import { safeEqual } from '../../common/safe-equal.js';
import type { SignatureFailure } from '../shared/signatures.js';

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
