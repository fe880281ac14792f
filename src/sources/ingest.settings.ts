import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsIn, IsInt, Matches, Max, Min } from 'class-validator';
import { SOURCE_NAMES as SOURCE_NAMES, type SourceName as SourceName } from './source-registry.js';
import { eachItem, toInt, toList } from '../config/config-transforms.js';
import { Feature, Setting } from '../config/settings/setting.js';

/**
 * The sources taken when WEBHOOK_PROVIDERS is unset: the ones this service had before Twilio,
 * 360dialog, WAHA and Evolution API, so that an upgrade opens no new URL (and, in production,
 * asks for no new credential). Every other source is enabled by naming it.
 */
export const DEFAULT_PROVIDERS: readonly SourceName[] = ['meta', 'wasender', 'generic'];

@Feature(
  'Webhook ingest',
  'Which sources are taken, and how much the acknowledgement path may hold in memory before it sheds load.',
)
export class IngestSettings {
  @Setting(`the sources taken, of ${SOURCE_NAMES.map((name) => `\`${name}\``).join(', ')}; a webhook request of any other gets \`403\``)
  @Transform(toList)
  @ArrayNotEmpty({ message: `WEBHOOK_PROVIDERS must name at least one of ${SOURCE_NAMES.join(', ')}` })
  @IsIn(SOURCE_NAMES, eachItem(`WEBHOOK_PROVIDERS must list only ${SOURCE_NAMES.join(', ')}`))
  WEBHOOK_PROVIDERS: SourceName[] = [...DEFAULT_PROVIDERS];

  /** Meta's documented maximum, the largest any supported source documents (docs/security.md, Limits). */
  @Setting('largest accepted webhook body: by default Meta\'s documented maximum, the largest any supported source documents')
  @Matches(/^\d+(kb|mb)$/i, { message: 'WEBHOOK_BODY_LIMIT must look like 3mb or 512kb' })
  WEBHOOK_BODY_LIMIT = '3mb';

  /**
   * A smaller webhook request is claimed in chunks of 1,000. Meta and 360dialog send at most
   * 1,000 updates per POST, Twilio, WAHA and WASender one event; only Evolution's messages.set
   * (a history sync) is larger, and 100,000 small items still fit the default body limit.
   */
  @Setting('events one webhook request may carry; beyond, `413` before anything is stored (minimum 1,000: one Meta batch)')
  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_MAX_EVENTS must be an integer' })
  @Min(1000, { message: 'WEBHOOK_MAX_EVENTS must be at least 1000 (one Meta batch holds up to 1,000 updates)' })
  @Max(1_000_000)
  WEBHOOK_MAX_EVENTS = 100_000;

  @Setting('events waiting for a claim statement at most; beyond, webhook requests are answered `503` at once (minimum 1,000)')
  @Transform(toInt)
  @IsInt({ message: 'CLAIM_QUEUE_MAX_EVENTS must be an integer' })
  @Min(1000, { message: 'CLAIM_QUEUE_MAX_EVENTS must be at least 1000 (one Meta batch holds up to 1,000 updates)' })
  @Max(1_000_000)
  CLAIM_QUEUE_MAX_EVENTS = 20_000;

  @Setting('megabytes of payload waiting for a claim statement at most; beyond, `503` at once (minimum 8: two bodies of the largest size Meta sends)')
  @Transform(toInt)
  @IsInt({ message: 'CLAIM_QUEUE_MAX_MB must be an integer' })
  @Min(8, { message: 'CLAIM_QUEUE_MAX_MB must be at least 8 (two bodies of the largest size Meta sends)' })
  @Max(4096)
  CLAIM_QUEUE_MAX_MB = 64;
}
