import { buildKey } from './idempotency-key.js';
import type { NormalizedEvent, ProviderName } from './normalized-event.js';
import { objectAt, readString } from './payload-values.js';
import { STATUS_READERS } from './status-readers.js';

/**
 * The message an event refers to (a reaction's, a status's), as the idempotency key that
 * message's own event has, or null. Destinations that keep conversations in order never send
 * such an event before that message (src/destinations). Gateways scope message keys by their
 * session or instance, which is the event's tenant.
 */
export function referencedMessageKey(event: NormalizedEvent): string | null {
  const id = event.kind === 'status' ? STATUS_READERS[event.provider](event).messageId : REACTION_TARGETS[event.provider](event.raw);
  if (id === null) return null;
  const scoped = event.provider === 'waha' || event.provider === 'evolution';
  if (scoped && event.tenant === null) return null;
  return buildKey(event.provider, 'msg', [id], scoped ? event.tenant! : undefined);
}

type TargetReader = (raw: Record<string, unknown>) => string | null;

/** Where each parser's raw item holds the id of the message a reaction is about. */
const metaReaction: TargetReader = (raw) => readString(objectAt(raw, 'message', 'reaction')?.message_id);
const baileysReaction = (message: unknown) => readString(objectAt(message, 'reactionMessage', 'key')?.id);

const REACTION_TARGETS: Record<ProviderName, TargetReader> = {
  meta: metaReaction,
  '360dialog': metaReaction,
  wasender: (raw) => baileysReaction(objectAt(raw, 'message', 'message')),
  evolution: (raw) => baileysReaction(objectAt(raw, 'data', 'message')),
  waha: (raw) => (raw.event === 'message.reaction' ? readString(objectAt(raw, 'payload', 'reaction')?.messageId) : null),
  twilio: () => null,
  generic: (raw) => readString(raw.replyTo) ?? readString(raw.reactionTo),
};
