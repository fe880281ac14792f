import { Injectable } from '@nestjs/common';
import { TrustSettings } from '../sources/trust.settings.js';
import { WasenderSettings } from '../sources/wasender/wasender.settings.js';
import type { SourceName } from '../sources/source-registry.js';
import { loadTenantsFile, TenantsFileError, type TenantBinding } from './tenants-file.js';

/**
 * TENANTS_FILE's bindings of credentials to tenants, per source, read and validated once at
 * boot (a wrong entry stops the start, naming the file and the entry).
 */
@Injectable()
export class TenantBindings {
  private readonly bySource = new Map<SourceName, TenantBinding[]>();

  constructor(trust: TrustSettings, wasender: WasenderSettings) {
    const all = trust.TENANTS_FILE === undefined ? [] : loadTenantsFile(trust.TENANTS_FILE);
    for (const binding of all) this.bySource.set(binding.source, [...(this.bySource.get(binding.source) ?? []), binding]);
    // The file's secret names the WASender tenant; a second, global answer would contradict it.
    if (this.bySource.has('wasender') && wasender.WASENDER_TENANT !== undefined) {
      throw new TenantsFileError([`TENANTS_FILE ${trust.TENANTS_FILE}: binds wasender tenants, so WASENDER_TENANT must be unset (each secret names its tenant)`]);
    }
  }

  of(source: SourceName): readonly TenantBinding[] {
    return this.bySource.get(source) ?? [];
  }
}
