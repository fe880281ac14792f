import { readEvolutionStatus } from './evolution.parser.js';
import { readGenericStatus } from './generic.parser.js';
import { readMetaStatus } from './meta-status.js';
import type { ProviderName } from './normalized-event.js';
import type { StatusReader } from './status-ladder.js';
import { readTwilioStatus } from './twilio.parser.js';
import { readWahaStatus } from './waha.parser.js';
import { readWasenderStatus } from './wasender.parser.js';

/** Each source's reading of its status events onto the delivery ladder (sent → delivered → read → played; failed). */
export const STATUS_READERS: Record<ProviderName, StatusReader> = {
  meta: readMetaStatus,
  '360dialog': readMetaStatus,
  wasender: readWasenderStatus,
  generic: readGenericStatus,
  twilio: readTwilioStatus,
  waha: readWahaStatus,
  evolution: readEvolutionStatus,
};
