import { NO_TARGET, type SourceDescriptor } from '../source-descriptor.js';
import { readTwilioStatus } from './twilio.parser.js';
import { TwilioSettings } from './twilio.settings.js';
import { TwilioSource } from './twilio.source.js';

/** Twilio posts forms, to its own URL only; its events never refer to another message. */
export const twilio: SourceDescriptor<'twilio'> = {
  name: 'twilio',
  source: TwilioSource,
  settings: TwilioSettings,
  readStatus: readTwilioStatus,
  referenceTarget: NO_TARGET,
  tenancy: { keyedByTenant: false, receiptsByTenant: false },
  credentialHeaders: ['x-twilio-signature'],
};
