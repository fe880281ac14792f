import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsIn, IsInt, Max, Min, MinLength } from 'class-validator';
import { PROVIDER_NAMES, type ProviderName } from '../events/normalized-event.js';
import { eachItem, toInt, toList } from './config-transforms.js';
import { SourceSettings } from './source-settings.js';

export { keyBytes, MIN_KEY_BYTES, WHSEC_PATTERN } from './source-settings.js';

/**
 * The sources taken when WEBHOOK_PROVIDERS is unset: the ones this service had before Twilio,
 * 360dialog, WAHA and Evolution API, so that an upgrade opens no new URL (and, in production,
 * asks for no new credential). Every other source is enabled by naming it.
 */
export const DEFAULT_PROVIDERS: readonly ProviderName[] = ['meta', 'wasender', 'generic'];

/**
 * Who may reach the inbox and the operator API (part of AppConfig). Every secret is a list
 * (comma separated): during a rotation the old and the new value are both accepted.
 */
export class TrustSettings extends SourceSettings {
  /** The webhook sources this service takes deliveries from; a shape of any other is refused. */
  @Transform(toList)
  @ArrayNotEmpty({ message: `WEBHOOK_PROVIDERS must name at least one of ${PROVIDER_NAMES.join(', ')}` })
  @IsIn(PROVIDER_NAMES, eachItem(`WEBHOOK_PROVIDERS must list only ${PROVIDER_NAMES.join(', ')}`))
  WEBHOOK_PROVIDERS: ProviderName[] = [...DEFAULT_PROVIDERS];

  /**
   * Sources that may run without a credential when NODE_ENV=production (their deliveries are
   * stored as unauthenticated). Without this, production refuses to start.
   */
  @Transform(toList)
  @IsIn(PROVIDER_NAMES, eachItem(`WEBHOOK_ALLOW_UNSIGNED must list only ${PROVIDER_NAMES.join(', ')}`))
  WEBHOOK_ALLOW_UNSIGNED: ProviderName[] = [];

  /** Tokens Meta's subscription handshake may present. */
  @Transform(toList)
  @MinLength(1, eachItem('WHATSAPP_VERIFY_TOKEN must not be empty'))
  WHATSAPP_VERIFY_TOKEN: string[] = [];

  /** How far a signed webhook-timestamp may be from this server's clock, either way. */
  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_TOLERANCE_SECONDS must be an integer' })
  @Min(1)
  @Max(86_400)
  WEBHOOK_TOLERANCE_SECONDS = 300;

  /**
   * Bearer keys of the inspection API (/messages, /deliveries). The HTTP service refuses to
   * start without one when NODE_ENV=production (see InspectionModule).
   */
  @Transform(toList)
  @MinLength(16, eachItem('INSPECTION_API_KEY must be at least 16 characters'))
  INSPECTION_API_KEY: string[] = [];
}
