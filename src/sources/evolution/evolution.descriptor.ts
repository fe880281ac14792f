import { baileysTarget } from '../shared/baileys-target.js';
import { objectAt } from '../shared/payload-values.js';
import type { SourceDescriptor } from '../source-descriptor.js';
import { readEvolutionStatus } from './evolution.parser.js';
import { EvolutionSettings } from './evolution.settings.js';
import { EvolutionSource } from './evolution.source.js';

/** Evolution API: an `event` with its `instance` and object or array `data`. */
export const evolution: SourceDescriptor<'evolution'> = {
  name: 'evolution',
  source: EvolutionSource,
  settings: EvolutionSettings,
  detection: {
    precedence: 1,
    matches: (body) => typeof body.event === 'string' && typeof body.instance === 'string' && typeof body.data === 'object' && body.data !== null,
  },
  readStatus: readEvolutionStatus,
  referenceTarget: (raw) => baileysTarget(objectAt(raw, 'data', 'message')),
  // A gateway numbers messages per instance: the instance is the tenant, and part of every key.
  tenancy: { keyedByTenant: true, receiptsByTenant: true },
  // Its key travels in the body (`apikey`) or in EVOLUTION_HEADER_NAME (by default authorization, censored for every request).
  credentialHeaders: ['apikey'],
};
