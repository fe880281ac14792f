import { isJsonObject, objectAt, readString } from '../shared/payload-values.js';
import type { SourceDescriptor } from '../source-descriptor.js';
import { readWahaStatus } from './waha.parser.js';
import { WahaSettings } from './waha.settings.js';
import { WahaSource } from './waha.source.js';

/** WAHA: an `event` with its `session` and an object `payload`. It documents no field naming an edited message. */
export const waha: SourceDescriptor<'waha'> = {
  name: 'waha',
  source: WahaSource,
  settings: WahaSettings,
  detection: { precedence: 1, matches: (body) => typeof body.event === 'string' && typeof body.session === 'string' && isJsonObject(body.payload) },
  readStatus: readWahaStatus,
  referenceTarget: (raw) => (raw.event === 'message.reaction' ? readString(objectAt(raw, 'payload', 'reaction')?.messageId) : null),
  // A gateway numbers messages per session: the session is the tenant, and part of every key.
  tenancy: { keyedByTenant: true, receiptsByTenant: true },
  credentialHeaders: ['x-webhook-hmac'],
};
