import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { DomainExceptionFilter } from './common/domain-exception.filter.js';
import { HealthModule } from './health/health.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { WorkerAppModule } from './worker-app.module.js';

/** The service: webhooks and health over HTTP, plus the worker unless WORKER_ENABLED=false. */
@Module({
  imports: [WorkerAppModule, HealthModule, WebhooksModule],
  providers: [{ provide: APP_FILTER, useClass: DomainExceptionFilter }],
})
export class AppModule {}
