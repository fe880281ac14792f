import { readString } from '../shared/payload-values.js';
import type { SourceDescriptor } from '../source-descriptor.js';
import { readGenericStatus } from './generic.parser.js';
import { GenericSettings } from './generic.settings.js';
import { GenericSource } from './generic.source.js';

/** The generic flat shape: any JSON object no other source's detector took. */
export const generic: SourceDescriptor<'generic'> = {
  name: 'generic',
  source: GenericSource,
  settings: GenericSettings,
  detection: { precedence: Number.MAX_SAFE_INTEGER, matches: () => true },
  readStatus: readGenericStatus,
  referenceTarget: (raw) => readString(raw.replyTo) ?? readString(raw.reactionTo),
  tenancy: { keyedByTenant: false, receiptsByTenant: false },
  credentialHeaders: ['webhook-signature'],
};
