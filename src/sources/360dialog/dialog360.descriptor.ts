import { metaTarget } from '../meta/meta.descriptor.js';
import { readMetaStatus } from '../meta/meta-status.js';
import type { SourceDescriptor } from '../source-descriptor.js';
import { Dialog360Settings } from './dialog360.settings.js';
import { Dialog360Source } from './dialog360.source.js';

/** 360dialog posts Meta's bodies: it has its own URL only (POST /webhook takes them as Meta's). */
export const dialog360: SourceDescriptor<'360dialog'> = {
  name: '360dialog',
  source: Dialog360Source,
  settings: Dialog360Settings,
  readStatus: readMetaStatus,
  referenceTarget: metaTarget,
  tenancy: { keyedByTenant: false, receiptsByTenant: false },
  // Its custom header's name is configured (DIALOG360_HEADER_NAME, by default authorization, censored for every request).
  credentialHeaders: ['x-360dialog-signature'],
};
