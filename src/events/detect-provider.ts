import { InvalidPayloadError } from '../common/domain-errors.js';
import type { ProviderName } from './normalized-event.js';
import { isJsonObject } from './payload-values.js';

const META_OBJECT = 'whatsapp_business_account';

/**
 * The JSON body shapes, named after the source POST /webhook gives them to. 360dialog posts
 * Meta's shape (it has its own URL only); Twilio posts forms, which have no shape here.
 */
export type ShapeName = Extract<ProviderName, 'meta' | 'wasender' | 'generic' | 'waha' | 'evolution'>;

/**
 * Which provider shaped this body. Decided by shape alone (one endpoint serves all
 * providers); the most specific envelopes are checked first: Meta's, then the gateways that
 * name their account (WAHA's session, Evolution's instance), then WASender's bare event + data.
 */
export function detectProvider(body: unknown): ShapeName {
  if (!isJsonObject(body)) throw new InvalidPayloadError('body is not a JSON object');
  if (body.object === META_OBJECT || Array.isArray(body.entry)) return 'meta';
  if (typeof body.event !== 'string') return 'generic';
  if (typeof body.session === 'string' && isJsonObject(body.payload)) return 'waha';
  const hasData = typeof body.data === 'object' && body.data !== null;
  if (typeof body.instance === 'string' && hasData) return 'evolution';
  return hasData ? 'wasender' : 'generic';
}
