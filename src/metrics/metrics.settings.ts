import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { emptyToUndefined, toInt } from '../config/config-transforms.js';
import { Feature, Setting } from '../config/settings/setting.js';

@Feature('Metrics', 'Prometheus metrics: `GET /metrics` of the HTTP service, and of the standalone worker when asked.')
export class MetricsSettings {
  @Setting('the standalone worker (`npm run start:worker`) serves `GET /metrics` on this port (on `HOST`)')
  @Transform(emptyToUndefined)
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'WORKER_METRICS_PORT must be an integer' })
  @Min(0)
  @Max(65535)
  WORKER_METRICS_PORT?: number;

  /**
   * Exported per enabled source, so changing it needs no edit of deploy/prometheus/alerts.yml.
   * At most 7 days: the rule looks back 8 days for a source's last event.
   */
  @Setting(
    'how long, in seconds, a source that had traffic may send no new event before the silence alert fires (exported as `wdd_silence_alert_after_seconds`); `0`: never; at most 7 days',
  )
  @Transform(toInt)
  @IsInt({ message: 'SILENCE_ALERT_AFTER_SECONDS must be an integer (seconds; 0 turns the silence alert off)' })
  @Min(0, { message: 'SILENCE_ALERT_AFTER_SECONDS must be between 0 (off) and 604800 (7 days)' })
  @Max(604_800, { message: 'SILENCE_ALERT_AFTER_SECONDS must be between 0 (off) and 604800 (7 days)' })
  SILENCE_ALERT_AFTER_SECONDS = 3600;
}
