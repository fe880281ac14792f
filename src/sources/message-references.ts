import { buildKey } from './shared/idempotency-key.js';
import type { NormalizedEvent } from './shared/normalized-event.js';
import { sourceDescriptor } from './source-registry.js';

/**
 * The message an event refers to (a reaction's, an edit's, a deletion's, a status's), as the idempotency key that
 * message's own event has, or null. Destinations that keep conversations in order never send
 * such an event before that message (src/destinations). Where each source's items name that
 * message is its descriptor's; a source that keys messages by tenant (a gateway's session or
 * instance, the event's tenant) scopes the key the same way.
 */
export function referencedMessageKey(event: NormalizedEvent): string | null {
  const source = sourceDescriptor(event.source);
  const id = event.kind === 'status' ? source.readStatus(event).messageId : source.referenceTarget(event.raw);
  if (id === null) return null;
  const scoped = source.tenancy.keyedByTenant;
  if (scoped && event.tenant === null) return null;
  return buildKey(event.source, 'msg', [id], scoped ? event.tenant! : undefined);
}
