import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { emptyToUndefined, toBoolean, toInt } from '../config/config-transforms.js';
import { Feature, Setting } from '../config/settings/setting.js';

export const DEFAULT_DEAD_RETENTION_DAYS = 30;

@Feature('Retention', 'The periodic purge of finished events and receipts (src/retention).')
export class RetentionSettings {
  @Setting('run the periodic purge in this process')
  @Transform(toBoolean)
  @IsBoolean({ message: 'RETENTION_ENABLED must be true or false' })
  RETENTION_ENABLED = true;

  /** Meta retries a webhook for up to 7 days: a key purged sooner would let a late retry be processed twice. */
  @Setting('keep processed events (their idempotency keys) and receipts (the `/deliveries` records) this many days after they last changed or were redelivered; minimum 8')
  @Transform(toInt)
  @IsInt({ message: 'RETENTION_DAYS must be an integer' })
  @Min(8, { message: 'RETENTION_DAYS must be at least 8: Meta retries a webhook for up to 7 days, and a key purged sooner lets a late retry be processed twice' })
  @Max(36_500)
  RETENTION_DAYS = 8;

  /** Filled in by `complete` when unset. */
  @Setting(
    'keep `dead` events this many days after their last attempt or redelivery, so they can still be replayed; minimum 8, never below `RETENTION_DAYS`',
    { default: '`30`, or `RETENTION_DAYS` when that is longer' },
  )
  @Transform(emptyToUndefined)
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'DEAD_RETENTION_DAYS must be an integer' })
  @Min(8, { message: "DEAD_RETENTION_DAYS must be at least 8, RETENTION_DAYS' minimum" })
  @Max(36_500)
  DEAD_RETENTION_DAYS: number;

  @Setting('time between purge runs, in minutes (±10 % jitter; the first run comes 10–70 s after start)')
  @Transform(toInt)
  @IsInt({ message: 'RETENTION_INTERVAL_MINUTES must be an integer' })
  @Min(1)
  @Max(1440)
  RETENTION_INTERVAL_MINUTES = 60;

  @Setting('rows one purge statement deletes at most: the locks it takes are held that briefly')
  @Transform(toInt)
  @IsInt({ message: 'RETENTION_BATCH_SIZE must be an integer' })
  @Min(1)
  @Max(10_000)
  RETENTION_BATCH_SIZE = 1000;

  static check(settings: RetentionSettings): string[] {
    // A dead event is purged on its own, longer clock; purging it before the processed ones would defeat the point.
    return settings.DEAD_RETENTION_DAYS !== undefined && settings.DEAD_RETENTION_DAYS < settings.RETENTION_DAYS
      ? [`DEAD_RETENTION_DAYS must not be below RETENTION_DAYS (${settings.RETENTION_DAYS})`]
      : [];
  }

  static complete(settings: RetentionSettings): void {
    // Unset, it follows a longer RETENTION_DAYS: raising that alone must never make the start fail.
    settings.DEAD_RETENTION_DAYS ??= Math.max(DEFAULT_DEAD_RETENTION_DAYS, settings.RETENTION_DAYS);
  }
}
