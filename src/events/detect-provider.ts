import { InvalidPayloadError } from '../common/domain-errors.js';
import type { ProviderName } from './normalized-event.js';
import { isJsonObject } from './payload-values.js';

const META_OBJECT = 'whatsapp_business_account';

/**
 * Which provider shaped this body. Decided by shape alone (one endpoint serves all
 * providers); Meta is checked first because its envelope is the most specific.
 */
export function detectProvider(body: unknown): ProviderName {
  if (!isJsonObject(body)) throw new InvalidPayloadError('body is not a JSON object');
  if (body.object === META_OBJECT || Array.isArray(body.entry)) return 'meta';
  if (typeof body.event === 'string' && typeof body.data === 'object' && body.data !== null) {
    return 'wasender';
  }
  return 'generic';
}
