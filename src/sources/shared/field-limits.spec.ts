import { InvalidPayloadError } from '../../common/domain-errors.js';
import { FIELD_LIMITS } from './field-limits.js';
import { parseGenericBody } from '../generic/generic.parser.js';
import { parseMetaBody } from '../meta/meta.parser.js';
import type { NormalizedEvent } from './normalized-event.js';
import { parseWahaBody } from '../waha/waha.parser.js';
import { parseWasenderBody } from '../wasender/wasender.parser.js';

const over = (kind: keyof typeof FIELD_LIMITS) => 'x'.repeat(FIELD_LIMITS[kind] + 1);
const at = (kind: keyof typeof FIELD_LIMITS) => 'x'.repeat(FIELD_LIMITS[kind]);
const meta = (value: Record<string, unknown>) => ({ object: 'whatsapp_business_account', entry: [{ id: 'W', changes: [{ field: 'messages', value }] }] });
const waha = (event: string, session: string, payload: Record<string, unknown>) => ({ id: 'evt_1', timestamp: 1764410000000, event, session, payload });
const wasender = (event: string, data: Record<string, unknown>) => ({ event, sessionId: 'k', data, timestamp: 1764410000 });

/** Each parser's strings that are normalised or keyed: one over its limit is a 400 naming the field, one at it is taken. */
const CASES: Array<[string, (s: (kind: keyof typeof FIELD_LIMITS) => string) => NormalizedEvent[], RegExp]> = [
  ['meta messages[].id', (s) => parseMetaBody(meta({ messages: [{ id: s('id'), from: '1' }] })), /^messages\[\]\.id is 513 /],
  ['meta statuses[].status', (s) => parseMetaBody(meta({ statuses: [{ id: 'A', status: s('status') }] })), /^statuses\[\]\.status is 65 /],
  ['meta statuses[].recipient_participant_id', (s) => parseMetaBody(meta({ statuses: [{ id: 'A', status: 'read', recipient_participant_id: s('id') }] })), /^statuses\[\]\.recipient_participant_id is 513 /],
  ['meta metadata.phone_number_id', (s) => parseMetaBody(meta({ metadata: { phone_number_id: s('tenant') }, messages: [{ id: 'A' }] })), /^metadata\.phone_number_id is 129 /],
  ['waha event', (s) => parseWahaBody(waha(s('event'), 'default', {})), /^event is 129 /],
  ['waha session', (s) => parseWahaBody(waha('message', s('tenant'), { id: 'A' })), /^session is 129 /],
  ['waha payload.id', (s) => parseWahaBody(waha('message.ack', 'default', { id: s('id'), ack: 3 })), /^payload\.id is 513 /],
  ['waha payload.ackName', (s) => parseWahaBody(waha('message.ack', 'default', { id: 'A', ackName: s('status') })), /^payload\.ackName is 65 /],
  ['wasender event', (s) => parseWasenderBody(wasender(s('event'), {})), /^event is 129 /],
  ['wasender key.id', (s) => parseWasenderBody(wasender('messages.received', { messages: { key: { id: s('id') } } })), /^data\.messages\.key\.id is 513 /],
  ['wasender update status', (s) => parseWasenderBody(wasender('messages.update', { key: { id: 'A' }, update: { status: s('status') } })), /^data\.update\.status is 65 /],
  ['wasender receipt.userJid', (s) => parseWasenderBody(wasender('message-receipt.update', { key: { id: 'A' }, receipt: { userJid: s('id'), readTimestamp: 1 } })), /^receipt\.userJid is 513 /],
  ['generic event', (s) => parseGenericBody({ event: s('event'), id: 'A' }), /^event is 129 /],
  ['generic id', (s) => parseGenericBody({ event: 'message', id: s('id') }), /^id is 513 /],
  ['generic status', (s) => parseGenericBody({ event: 'message.status', id: 'A', status: s('status') }), /^status is 65 /],
  ['generic tenant', (s) => parseGenericBody({ event: 'message', id: 'A', tenant: s('tenant') }), /^tenant is 129 /],
  ['generic webhook-id', (s) => parseGenericBody({ event: 'message' }, s('id')), /^the webhook-id header is 513 /],
];

describe('field limits', () => {
  it.each(CASES)('%s: over the limit is a 400 naming it, at the limit is taken', (_name, parse, reason) => {
    expect(() => parse(over)).toThrow(InvalidPayloadError);
    expect(() => parse(over)).toThrow(reason);
    expect(parse(at).length).toBeGreaterThan(0);
  });
});
