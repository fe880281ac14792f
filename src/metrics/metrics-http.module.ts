import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { SilenceAlertThreshold } from './silence-alert-threshold.js';

/**
 * GET /metrics: HTTP application only (AppModule). Relies on the global MetricsModule, which
 * CoreModule imports. Webhook traffic is counted where every webhook request is answered, in
 * WebhookIngress. The silence alert's threshold is exported here, by the process that accepts events.
 */
@Module({ controllers: [MetricsController], providers: [SilenceAlertThreshold] })
export class MetricsHttpModule {}
