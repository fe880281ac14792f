/**
 * The token the sources' classes get their settings by. Each class declares the settings it
 * reads (e.g. MetaConfig), so src/sources imports nothing from src/config, which validates
 * source names from the registry: the arrow points one way. The webhooks module binds the
 * token to AppConfig, checked by the compiler against every registered class's declaration
 * (SourceConfig in source-registry.ts).
 */
export const SOURCE_CONFIG = 'SOURCE_CONFIG';

/** A TENANTS_FILE entry as a source uses it: the credentials that prove a request is that tenant's. */
export interface TenantCredentials {
  readonly tenant: string;
  readonly credentials: readonly string[];
}
