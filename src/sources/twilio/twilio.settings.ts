import { Transform } from 'class-transformer';
import { IsOptional, MinLength, ValidateBy } from 'class-validator';
import { eachItem, emptyToUndefined, toList } from '../../config/config-transforms.js';
import { Feature, Setting } from '../../config/settings/setting.js';

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

@Feature('Source: twilio', 'Twilio (WhatsApp and SMS). Every secret takes a comma-separated list: during a rotation the old and the new value are both accepted. With no credential set, the source takes webhook requests unauthenticated, which production refuses unless `WEBHOOK_ALLOW_UNSIGNED` names it.')
export class TwilioSettings {
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
}
