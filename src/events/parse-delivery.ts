import { InvalidPayloadError } from '../common/domain-errors.js';
import { detectProvider } from './detect-provider.js';
import { parseGenericBody } from './generic.parser.js';
import { parseMetaBody } from './meta.parser.js';
import type { NormalizedEvent, ParsedDelivery, ProviderName } from './normalized-event.js';
import type { JsonObject } from './payload-values.js';
import { parseWasenderBody } from './wasender.parser.js';

const PARSERS: Record<ProviderName, (body: JsonObject) => NormalizedEvent[]> = {
  meta: parseMetaBody,
  wasender: parseWasenderBody,
  generic: parseGenericBody,
};

/**
 * Every event of one webhook body, in body order. Duplicates inside one body are kept:
 * deciding what already happened is the claim's job, not the parser's.
 * Throws InvalidPayloadError only when the body yields nothing to record. Pass `provider` when
 * the caller has already detected it (the webhook does, to check the signature first).
 */
export function parseDelivery(body: unknown, provider: ProviderName = detectProvider(body)): ParsedDelivery {
  // detectProvider has rejected everything that is not a JSON object.
  const events = PARSERS[provider](body as JsonObject);
  if (events.length === 0) {
    throw new InvalidPayloadError(`no event with an idempotency key in the body (${provider} payload)`);
  }
  return { provider, events };
}
