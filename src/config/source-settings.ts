import { Transform } from 'class-transformer';
import { IsOptional, Matches, MaxLength, MinLength, ValidateBy } from 'class-validator';
import { emptyToUndefined, eachItem, toList } from './config-transforms.js';
import { Feature, Setting } from './settings/setting.js';
import { keyBytes, MIN_KEY_BYTES, WHSEC_PATTERN } from './whsec.js';

export { keyBytes, MIN_KEY_BYTES, WHSEC_PATTERN } from './whsec.js';

/** An HTTP header name (RFC 9110 token), as a custom-header credential is configured. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** An absolute http(s) URL without query or fragment: the service's address as sources call it. */
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
 * Each webhook source's credentials. A source with no credential takes webhook requests
 * unauthenticated, which production refuses unless WEBHOOK_ALLOW_UNSIGNED names it.
 */
@Feature(
  'Sources',
  'Each source\'s credentials. Every secret takes a comma-separated list: during a rotation the old and the new value are both accepted. A source with no credential takes webhook requests unauthenticated, which production refuses unless `WEBHOOK_ALLOW_UNSIGNED` names it.',
)
export class SourceSettings {
  @Setting('token(s) Meta\'s subscription handshake must present; unset: every handshake is refused')
  @Transform(toList)
  @MinLength(1, eachItem('WHATSAPP_VERIFY_TOKEN must not be empty'))
  WHATSAPP_VERIFY_TOKEN: string[] = [];

  @Setting('Meta app secret(s); set: Meta webhook requests must carry a valid `X-Hub-Signature-256`')
  @Transform(toList)
  @MinLength(8, eachItem('WHATSAPP_APP_SECRET is too short to be a Meta app secret'))
  WHATSAPP_APP_SECRET: string[] = [];

  @Setting('WASender webhook secret(s); set: WASender webhook requests must carry one in `X-Webhook-Signature`')
  @Transform(toList)
  @MinLength(8, eachItem('WASENDER_WEBHOOK_SECRET must be at least 8 characters'))
  WASENDER_WEBHOOK_SECRET: string[] = [];

  @Setting('the tenant given to WASender events (WASender\'s body names no business number); not with a `TENANTS_FILE` that binds WASender')
  @Transform(emptyToUndefined)
  @IsOptional()
  @MaxLength(128, { message: 'WASENDER_TENANT must be at most 128 characters' })
  WASENDER_TENANT?: string;

  @Setting('Standard Webhooks secret(s) `whsec_<base64>`; set: generic webhook requests must be signed with one')
  @Transform(toList)
  @Matches(WHSEC_PATTERN, eachItem('GENERIC_WEBHOOK_SECRET must be whsec_ followed by base64, as Standard Webhooks secrets are'))
  @ValidateBy(
    { name: 'isLongEnoughKey', validator: { validate: (secret: unknown) => typeof secret === 'string' && keyBytes(secret) >= MIN_KEY_BYTES } },
    eachItem(`GENERIC_WEBHOOK_SECRET must hold at least ${MIN_KEY_BYTES} bytes after whsec_ (Standard Webhooks recommends 24 to 64)`),
  )
  GENERIC_WEBHOOK_SECRET: string[] = [];

  /**
   * Twilio signs the full URL it called, which the service cannot see behind a proxy; the
   * signed URL is this plus the request's path and query.
   */
  @Setting(
    'the service\'s address as sources call it, without `/webhook/…` (`https://hooks.example.com`, or with the prefix a proxy strips); Twilio\'s signature covers it, so it is required with a Twilio credential',
  )
  @Transform(emptyToUndefined)
  @IsOptional()
  @ValidateBy(
    { name: 'isBaseUrl', validator: { validate: isBaseUrl } },
    { message: 'PUBLIC_BASE_URL must be an absolute http(s) URL without query, fragment or credentials, e.g. https://hooks.example.com' },
  )
  PUBLIC_BASE_URL?: string;

  @Setting('Twilio Auth Token(s) (primary and secondary during a rotation); set: Twilio webhook requests must carry a valid `X-Twilio-Signature`')
  @Transform(toList)
  @MinLength(16, eachItem('TWILIO_AUTH_TOKEN is too short to be a Twilio Auth Token'))
  TWILIO_AUTH_TOKEN: string[] = [];

  @Setting('SharedKey secret(s) of Twilio Webhook Settings (HMAC-SHA256 signatures announced by `X-Twilio-Webhooks-Signature-Settings`)')
  @Transform(toList)
  @MinLength(16, eachItem('TWILIO_WEBHOOK_SHARED_KEY must be at least 16 characters'))
  TWILIO_WEBHOOK_SHARED_KEY: string[] = [];

  @Setting('360dialog partner platform secret(s); set: webhook requests must carry a valid `x-360dialog-signature`')
  @Transform(toList)
  @MinLength(8, eachItem('DIALOG360_PLATFORM_SECRET must be at least 8 characters'))
  DIALOG360_PLATFORM_SECRET: string[] = [];

  @Setting('value(s) of the custom header set on the 360dialog webhook URL (e.g. `Authorization: <secret>`); set: webhook requests must carry one')
  @Transform(toList)
  @MinLength(16, eachItem('DIALOG360_HEADER_SECRET must be at least 16 characters'))
  DIALOG360_HEADER_SECRET: string[] = [];

  @Setting('the custom header `DIALOG360_HEADER_SECRET` arrives in')
  @Matches(HEADER_NAME, { message: 'DIALOG360_HEADER_NAME must be an HTTP header name' })
  DIALOG360_HEADER_NAME = 'authorization';

  @Setting('WAHA webhook HMAC key(s); set: WAHA webhook requests must carry a valid `X-Webhook-Hmac`')
  @Transform(toList)
  @MinLength(8, eachItem('WAHA_WEBHOOK_HMAC_KEY must be at least 8 characters'))
  WAHA_WEBHOOK_HMAC_KEY: string[] = [];

  @Setting('Evolution API key(s) or header secret(s); set: Evolution webhook requests must carry one in `apikey` or in `EVOLUTION_HEADER_NAME`')
  @Transform(toList)
  @MinLength(16, eachItem('EVOLUTION_API_KEY must be at least 16 characters'))
  EVOLUTION_API_KEY: string[] = [];

  @Setting('the header Evolution\'s webhook `headers` setting sends the key in (`Bearer ` optional), when the body has none')
  @Matches(HEADER_NAME, { message: 'EVOLUTION_HEADER_NAME must be an HTTP header name' })
  EVOLUTION_HEADER_NAME = 'authorization';
}
