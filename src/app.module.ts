import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { DomainExceptionFilter } from './common/domain-exception.filter.js';
import { HealthModule } from './health/health.module.js';
import { InspectionModule } from './inspection/inspection.module.js';
import { MetricsHttpModule } from './metrics/metrics-http.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { CoreModule } from './core.module.js';

/** The service: webhooks, the inspection API and health over HTTP, plus the worker unless WORKER_ENABLED=false. */
@Module({
  imports: [CoreModule, HealthModule, WebhooksModule, InspectionModule, MetricsHttpModule],
  providers: [{ provide: APP_FILTER, useClass: DomainExceptionFilter }],
})
export class AppModule {}
