import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';

/**
 * GET /metrics: HTTP application only (AppModule). Relies on the global MetricsModule, which
 * WorkerAppModule imports. Webhook traffic is counted where every delivery is answered, in
 * WebhookIngress.
 */
@Module({ controllers: [MetricsController] })
export class MetricsHttpModule {}
