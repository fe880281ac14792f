import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInt } from './config-transforms.js';

/**
 * How much the acknowledgement path may hold in memory before it sheds load (part of AppConfig;
 * the settings groups extend one another only so that AppConfig is one validated class).
 */
export class IngestSettings {
  /** Events waiting for a claim statement at most; beyond, deliveries get 503 at once. */
  @Transform(toInt)
  @IsInt({ message: 'CLAIM_QUEUE_MAX_EVENTS must be an integer' })
  @Min(1000, { message: 'CLAIM_QUEUE_MAX_EVENTS must be at least 1000 (one Meta batch holds up to 1,000 updates)' })
  @Max(1_000_000)
  CLAIM_QUEUE_MAX_EVENTS = 20_000;

  /** Megabytes of payload waiting for a claim statement at most; beyond, deliveries get 503 at once. */
  @Transform(toInt)
  @IsInt({ message: 'CLAIM_QUEUE_MAX_MB must be an integer' })
  @Min(8, { message: 'CLAIM_QUEUE_MAX_MB must be at least 8 (two bodies of the largest size Meta sends)' })
  @Max(4096)
  CLAIM_QUEUE_MAX_MB = 64;

  /**
   * Events one delivery may carry at most; beyond, it gets 413 before anything is stored (a
   * smaller delivery is claimed in chunks of 1,000). Meta and 360dialog send at most 1,000
   * updates per POST, Twilio, WAHA and WASender one event; only Evolution's messages.set (a
   * history sync) is larger, and 100,000 small items still fit the default 4 MB body.
   */
  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_MAX_EVENTS must be an integer' })
  @Min(1000, { message: 'WEBHOOK_MAX_EVENTS must be at least 1000 (one Meta batch holds up to 1,000 updates)' })
  @Max(1_000_000)
  WEBHOOK_MAX_EVENTS = 100_000;
}
