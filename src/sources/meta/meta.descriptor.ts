import type { SourceDescriptor, TargetReader } from '../source-descriptor.js';
import { objectAt, readString } from '../shared/payload-values.js';
import { readMetaStatus } from './meta-status.js';
import { MetaSettings } from './meta.settings.js';
import { MetaSource } from './meta.source.js';

const META_OBJECT = 'whatsapp_business_account';

/** A reaction's `message_id`, an edit's or a deletion's `original_message_id` (360dialog's items too). */
export const metaTarget: TargetReader = (raw) => {
  const message = objectAt(raw, 'message');
  return readString(objectAt(message, 'reaction')?.message_id)
    ?? readString(objectAt(message, 'edit')?.original_message_id)
    ?? readString(objectAt(message, 'revoke')?.original_message_id);
};

/** Meta's WhatsApp Cloud API. Its envelope names itself: detected before every other. */
export const meta: SourceDescriptor<'meta'> = {
  name: 'meta',
  source: MetaSource,
  settings: MetaSettings,
  detection: { precedence: 0, matches: (body) => body.object === META_OBJECT || Array.isArray(body.entry) },
  readStatus: readMetaStatus,
  referenceTarget: metaTarget,
  tenancy: { keyedByTenant: false, receiptsByTenant: false },
  credentialHeaders: ['x-hub-signature-256'],
};
