import { InvalidPayloadError } from '../../common/domain-errors.js';

/**
 * The longest string a parser takes from a body before normalising it (trimming, case folding)
 * or putting it into an idempotency key. Every source's real values are far shorter; a body
 * beyond them is not one a source sent, so it gets a 400 naming the field and the limit
 * rather than a silent cut (a cut would merge two different ids into one key). Bounding first
 * also keeps every later step over these strings cheap, whatever it costs per character.
 */
export const FIELD_LIMITS = {
  /**
   * Event names: the longest any gateway documents is under 30 characters (WASender's
   * `messages-newsletter.received`, Evolution's `group-participants.update`, in any of its
   * spellings); 128 leaves room for names they add later.
   */
  event: 128,
  /** Instances, sessions, phone_number_ids, tenants: the width of the tenant column (MAX_TENANT_LENGTH). */
  tenant: 128,
  /**
   * Message, status and participant ids: a wamid is about 60 characters, a WAHA group ack id
   * (`false_<group>@g.us_<id>_<participant>@lid`) about 120, a Twilio SID 34. 512 is generous
   * and still keeps a key's parts to a few kilobytes before buildKey digests them.
   */
  id: 512,
  /** Status and ack names (`delivered`, `DELIVERY_ACK`): the width of the type column. */
  status: 64,
} as const;

export type FieldKind = keyof typeof FIELD_LIMITS;

/**
 * `text` as is when it fits the limit of its kind; otherwise an InvalidPayloadError (400) that
 * names `field` (the body's own name for it, e.g. `instance`, `data.key.id`) and the limit.
 */
export function withinLimit<T extends string | null>(text: T, field: string, kind: FieldKind): T {
  const limit = FIELD_LIMITS[kind];
  if (text !== null && text.length > limit) {
    throw new InvalidPayloadError(`${field} is ${text.length} characters long; at most ${limit} are accepted`);
  }
  return text;
}
