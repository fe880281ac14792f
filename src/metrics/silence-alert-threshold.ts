import { Injectable, type OnModuleInit } from '@nestjs/common';
import { IngestSettings } from '../sources/ingest.settings.js';
import { MetricsSettings } from './metrics.settings.js';
import { MetricsService } from './metrics.service.js';

/**
 * Exports SILENCE_ALERT_AFTER_SECONDS once per enabled source (wdd_silence_alert_after_seconds),
 * so the silence alert compares against the configured value instead of a number in the rule
 * file. HTTP service only (MetricsHttpModule): it is the process that accepts events and sets
 * wdd_last_accepted_event_timestamp_seconds; a standalone worker, which may not even be given
 * WEBHOOK_PROVIDERS, exports neither.
 */
@Injectable()
export class SilenceAlertThreshold implements OnModuleInit {
  constructor(
    private readonly ingest: IngestSettings,
    private readonly settings: MetricsSettings,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    this.metrics.silenceAlertThreshold([...new Set(this.ingest.WEBHOOK_PROVIDERS)], this.settings.SILENCE_ALERT_AFTER_SECONDS);
  }
}
