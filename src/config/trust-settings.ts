import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsIn, IsInt, Matches, Max, Min, MinLength, ValidateBy } from 'class-validator';
import { PROVIDER_NAMES, type ProviderName } from '../events/normalized-event.js';
import { eachItem, toInt, toList } from './config-transforms.js';
import { IngestSettings } from './ingest-settings.js';

/** `whsec_` + base64, as Standard Webhooks libraries write secrets. */
export const WHSEC_PATTERN = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** The shortest HMAC key a `whsec_` secret may decode to. */
export const MIN_KEY_BYTES = 16;

/** How many bytes the HMAC key of a `whsec_` secret has. */
export const keyBytes = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64').length;

/**
 * Who may reach the inbox and the operator API (part of AppConfig). Every secret is a list
 * (comma separated): during a rotation the old and the new value are both accepted.
 */
export class TrustSettings extends IngestSettings {
  /** The webhook sources this service takes deliveries from; a shape of any other is refused. */
  @Transform(toList)
  @ArrayNotEmpty({ message: `WEBHOOK_PROVIDERS must name at least one of ${PROVIDER_NAMES.join(', ')}` })
  @IsIn(PROVIDER_NAMES, eachItem(`WEBHOOK_PROVIDERS must list only ${PROVIDER_NAMES.join(', ')}`))
  WEBHOOK_PROVIDERS: ProviderName[] = [...PROVIDER_NAMES];

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
