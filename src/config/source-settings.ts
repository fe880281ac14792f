import { Transform } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { emptyToUndefined, eachItem, toList } from './config-transforms.js';
import { IngestSettings } from './ingest-settings.js';

/** `whsec_` + base64, as Standard Webhooks libraries write secrets. */
export const WHSEC_PATTERN = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** The shortest HMAC key a `whsec_` secret may decode to. */
export const MIN_KEY_BYTES = 16;

/** How many bytes the HMAC key of a `whsec_` secret has. */
export const keyBytes = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64').length;

/** An HTTP header name (RFC 9110 token), as a custom-header credential is configured. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** An absolute http(s) URL without query or fragment: the service's address as providers call it. */
function isBaseUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.search === '' && url.hash === '' && url.username === '';
  } catch {
    return false;
  }
}

/**
 * Each webhook source's credentials (part of AppConfig). Every secret is a list (comma
 * separated): during a rotation the old and the new value are both accepted. A source with no
 * credential takes deliveries unauthenticated, which production refuses (TrustSettings).
 */
export class SourceSettings extends IngestSettings {
  /**
   * The service's public base URL as providers call it (`https://hooks.example.com`, or with
   * the path prefix a proxy strips). Twilio signs the full URL it called, which the service
   * cannot see behind a proxy; the signed URL is this plus the request's path and query.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @ValidateBy(
    { name: 'isBaseUrl', validator: { validate: isBaseUrl } },
    { message: 'PUBLIC_BASE_URL must be an absolute http(s) URL without query, fragment or credentials, e.g. https://hooks.example.com' },
  )
  PUBLIC_BASE_URL?: string;

  /** Meta app secrets: deliveries must carry X-Hub-Signature-256 made with one of them. */
  @Transform(toList)
  @MinLength(8, eachItem('WHATSAPP_APP_SECRET is too short to be a Meta app secret'))
  WHATSAPP_APP_SECRET: string[] = [];

  /** WASenderApi webhook secrets: deliveries must carry one of them in X-Webhook-Signature. */
  @Transform(toList)
  @MinLength(8, eachItem('WASENDER_WEBHOOK_SECRET must be at least 8 characters'))
  WASENDER_WEBHOOK_SECRET: string[] = [];

  /** Standard Webhooks secrets (`whsec_…`) the generic source's deliveries must be signed with. */
  @Transform(toList)
  @Matches(WHSEC_PATTERN, eachItem('GENERIC_WEBHOOK_SECRET must be whsec_ followed by base64, as Standard Webhooks secrets are'))
  @ValidateBy(
    { name: 'isLongEnoughKey', validator: { validate: (secret: unknown) => typeof secret === 'string' && keyBytes(secret) >= MIN_KEY_BYTES } },
    eachItem(`GENERIC_WEBHOOK_SECRET must hold at least ${MIN_KEY_BYTES} bytes after whsec_ (Standard Webhooks recommends 24 to 64)`),
  )
  GENERIC_WEBHOOK_SECRET: string[] = [];

  /** Twilio Auth Tokens (primary and secondary during a rotation): X-Twilio-Signature is HMAC-SHA1 keyed by one. */
  @Transform(toList)
  @MinLength(16, eachItem('TWILIO_AUTH_TOKEN is too short to be a Twilio Auth Token'))
  TWILIO_AUTH_TOKEN: string[] = [];

  /** Twilio webhook SharedKey secrets: signatures announced by X-Twilio-Webhooks-Signature-Settings use one. */
  @Transform(toList)
  @MinLength(16, eachItem('TWILIO_WEBHOOK_SHARED_KEY must be at least 16 characters'))
  TWILIO_WEBHOOK_SHARED_KEY: string[] = [];

  /** 360dialog platform secrets: x-360dialog-signature is the HMAC-SHA256 of the body keyed by one. */
  @Transform(toList)
  @MinLength(8, eachItem('DIALOG360_PLATFORM_SECRET must be at least 8 characters'))
  DIALOG360_PLATFORM_SECRET: string[] = [];

  /** Values of the custom header set on the 360dialog webhook URL (e.g. `Authorization: <secret>`). */
  @Transform(toList)
  @MinLength(16, eachItem('DIALOG360_HEADER_SECRET must be at least 16 characters'))
  DIALOG360_HEADER_SECRET: string[] = [];

  /** The custom header DIALOG360_HEADER_SECRET arrives in. */
  @Matches(HEADER_NAME, { message: 'DIALOG360_HEADER_NAME must be an HTTP header name' })
  DIALOG360_HEADER_NAME = 'authorization';

  /** WAHA webhook HMAC keys: X-Webhook-Hmac is the hex HMAC-SHA512 of the body keyed by one. */
  @Transform(toList)
  @MinLength(8, eachItem('WAHA_WEBHOOK_HMAC_KEY must be at least 8 characters'))
  WAHA_WEBHOOK_HMAC_KEY: string[] = [];

  /** Evolution API keys: a delivery's `apikey` (or EVOLUTION_HEADER_NAME header) must be one. */
  @Transform(toList)
  @MinLength(16, eachItem('EVOLUTION_API_KEY must be at least 16 characters'))
  EVOLUTION_API_KEY: string[] = [];

  /** The header Evolution's webhook `headers` setting sends the key in (`Bearer ` optional), when the body has none. */
  @Matches(HEADER_NAME, { message: 'EVOLUTION_HEADER_NAME must be an HTTP header name' })
  EVOLUTION_HEADER_NAME = 'authorization';

  /**
   * A YAML or JSON file binding each source's credentials to tenants (src/tenants): a delivery
   * whose credential is bound may only carry events of those tenants. Read and validated at boot.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString({ message: 'TENANTS_FILE must be a file path' })
  TENANTS_FILE?: string;

  /** The tenant of WASender events (WASender's body names no business number). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @MaxLength(128, { message: 'WASENDER_TENANT must be at most 128 characters' })
  WASENDER_TENANT?: string;
}
