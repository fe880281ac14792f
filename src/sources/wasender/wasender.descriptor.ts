import { baileysTarget } from '../shared/baileys-target.js';
import { objectAt } from '../shared/payload-values.js';
import type { SourceDescriptor } from '../source-descriptor.js';
import { readWasenderStatus } from './wasender.parser.js';
import { WasenderSettings } from './wasender.settings.js';
import { WasenderSource } from './wasender.source.js';

/** WASenderApi: a bare `event` with object or array `data`, after the gateways that name their account. */
export const wasender: SourceDescriptor<'wasender'> = {
  name: 'wasender',
  source: WasenderSource,
  settings: WasenderSettings,
  detection: { precedence: 2, matches: (body) => typeof body.event === 'string' && typeof body.data === 'object' && body.data !== null },
  readStatus: readWasenderStatus,
  referenceTarget: (raw) => baileysTarget(objectAt(raw, 'message', 'message')),
  // Its message ids are global, but a record is the tenant's its secret is bound to (WASENDER_TENANT, TENANTS_FILE).
  tenancy: { keyedByTenant: false, receiptsByTenant: true },
  credentialHeaders: ['x-webhook-signature'],
};
