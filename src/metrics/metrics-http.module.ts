import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller.js';
import { WebhookTrafficObserver } from './webhook-traffic.observer.js';

/**
 * GET /metrics and the webhook traffic metrics: HTTP application only (AppModule). Relies on
 * the global MetricsModule, which WorkerAppModule imports.
 */
@Module({ controllers: [MetricsController], providers: [WebhookTrafficObserver] })
export class MetricsHttpModule {}
