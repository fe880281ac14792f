import { Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { EnvironmentSettings } from '../config/settings/environment.settings.js';
import { DedupModule } from '../dedup/dedup.module.js';
import { IngestSettings } from '../sources/ingest.settings.js';
import { TrustSettings } from '../sources/trust.settings.js';
import { TenantBindings } from '../tenants/tenant-bindings.js';
import { WebhookIngress } from './webhook-ingress.js';
import { WebhookSources } from './webhook-sources.service.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * The webhook routes. The sources' classes are not listed here: WebhookSources builds one of
 * every class in the source registry (src/sources/source-registry.ts) when the app starts, each
 * injecting its own settings class (listed by its descriptor, provided by ConfigModule).
 */
@Module({
  imports: [DedupModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhookIngress,
    TenantBindings,
    {
      provide: WebhookSources,
      inject: [ModuleRef, IngestSettings, EnvironmentSettings, TrustSettings, TenantBindings],
      useFactory: (moduleRef: ModuleRef, ingest: IngestSettings, environment: EnvironmentSettings, trust: TrustSettings, tenants: TenantBindings) =>
        WebhookSources.create(moduleRef, { ingest, environment, trust }, tenants),
    },
  ],
})
export class WebhooksModule {}
