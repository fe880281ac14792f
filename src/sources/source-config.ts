/**
 * The settings the sources' classes read, declared here so that src/sources imports nothing
 * from src/config (which validates source names from the registry: the arrow points one way).
 * The webhooks module binds SOURCE_CONFIG to AppConfig, which has every field.
 */
export const SOURCE_CONFIG = 'SOURCE_CONFIG';

export interface SourceConfig {
  readonly WHATSAPP_APP_SECRET: readonly string[];
  readonly WASENDER_WEBHOOK_SECRET: readonly string[];
  readonly WASENDER_TENANT?: string;
  readonly GENERIC_WEBHOOK_SECRET: readonly string[];
  readonly WEBHOOK_TOLERANCE_SECONDS: number;
  readonly TWILIO_AUTH_TOKEN: readonly string[];
  readonly TWILIO_WEBHOOK_SHARED_KEY: readonly string[];
  readonly PUBLIC_BASE_URL?: string;
  readonly DIALOG360_PLATFORM_SECRET: readonly string[];
  readonly DIALOG360_HEADER_SECRET: readonly string[];
  readonly DIALOG360_HEADER_NAME: string;
  readonly WAHA_WEBHOOK_HMAC_KEY: readonly string[];
  readonly EVOLUTION_API_KEY: readonly string[];
  readonly EVOLUTION_HEADER_NAME: string;
}

/** A TENANTS_FILE entry as a source uses it: the credentials that prove a request is that tenant's. */
export interface TenantCredentials {
  readonly tenant: string;
  readonly credentials: readonly string[];
}
