import { Transform } from 'class-transformer';
import { IsInt, Matches, Max, Min, ValidateBy } from 'class-validator';
import { eachItem, toInt, toList } from '../../config/config-transforms.js';
import { Feature, Setting } from '../../config/settings/setting.js';
import { keyBytes, MIN_KEY_BYTES, WHSEC_PATTERN } from '../../config/whsec.js';

@Feature('Source: generic', 'The generic flat shape, signed with Standard Webhooks. Every secret takes a comma-separated list: during a rotation the old and the new value are both accepted. With no credential set, the source takes webhook requests unauthenticated, which production refuses unless `WEBHOOK_ALLOW_UNSIGNED` names it.')
export class GenericSettings {
  @Setting('Standard Webhooks secret(s) `whsec_<base64>`; set: generic webhook requests must be signed with one')
  @Transform(toList)
  @Matches(WHSEC_PATTERN, eachItem('GENERIC_WEBHOOK_SECRET must be whsec_ followed by base64, as Standard Webhooks secrets are'))
  @ValidateBy(
    { name: 'isLongEnoughKey', validator: { validate: (secret: unknown) => typeof secret === 'string' && keyBytes(secret) >= MIN_KEY_BYTES } },
    eachItem(`GENERIC_WEBHOOK_SECRET must hold at least ${MIN_KEY_BYTES} bytes after whsec_ (Standard Webhooks recommends 24 to 64)`),
  )
  GENERIC_WEBHOOK_SECRET: string[] = [];

  /** Standard Webhooks' replay window: only this source's requests carry a signed timestamp. */
  @Setting('how far a signed `webhook-timestamp` may be from the server clock, either way, in seconds')
  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_TOLERANCE_SECONDS must be an integer' })
  @Min(1)
  @Max(86_400)
  WEBHOOK_TOLERANCE_SECONDS = 300;
}
