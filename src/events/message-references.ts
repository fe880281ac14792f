import { buildKey } from './idempotency-key.js';
import type { NormalizedEvent, ProviderName } from './normalized-event.js';
import { objectAt, readString } from './payload-values.js';
import { STATUS_READERS } from './status-readers.js';

/**
 * The message an event refers to (a reaction's, an edit's, a deletion's, a status's), as the idempotency key that
 * message's own event has, or null. Destinations that keep conversations in order never send
 * such an event before that message (src/destinations). Gateways scope message keys by their
 * session or instance, which is the event's tenant.
 */
export function referencedMessageKey(event: NormalizedEvent): string | null {
  const id = event.kind === 'status' ? STATUS_READERS[event.provider](event).messageId : REFERENCE_TARGETS[event.provider](event.raw);
  if (id === null) return null;
  const scoped = event.provider === 'waha' || event.provider === 'evolution';
  if (scoped && event.tenant === null) return null;
  return buildKey(event.provider, 'msg', [id], scoped ? event.tenant! : undefined);
}

type TargetReader = (raw: Record<string, unknown>) => string | null;

/**
 * Where each parser's raw item holds the id of the message a reaction, an edit or a deletion is
 * about. Meta: `reaction.message_id`, `edit.original_message_id`, `revoke.original_message_id`.
 * Baileys (WASender, Evolution): a `reactionMessage`'s key, or a `protocolMessage`'s (edits and
 * deletions, bare or inside `editedMessage`). WAHA documents no field naming an edited message.
 */
const metaTarget: TargetReader = (raw) => {
  const message = objectAt(raw, 'message');
  return readString(objectAt(message, 'reaction')?.message_id)
    ?? readString(objectAt(message, 'edit')?.original_message_id)
    ?? readString(objectAt(message, 'revoke')?.original_message_id);
};
const baileysTarget = (message: unknown) => readString(objectAt(message, 'reactionMessage', 'key')?.id)
  ?? readString(objectAt(message, 'protocolMessage', 'key')?.id)
  ?? readString(objectAt(message, 'editedMessage', 'message', 'protocolMessage', 'key')?.id);

const REFERENCE_TARGETS: Record<ProviderName, TargetReader> = {
  meta: metaTarget,
  '360dialog': metaTarget,
  wasender: (raw) => baileysTarget(objectAt(raw, 'message', 'message')),
  evolution: (raw) => baileysTarget(objectAt(raw, 'data', 'message')),
  waha: (raw) => (raw.event === 'message.reaction' ? readString(objectAt(raw, 'payload', 'reaction')?.messageId) : null),
  twilio: () => null,
  generic: (raw) => readString(raw.replyTo) ?? readString(raw.reactionTo),
};
