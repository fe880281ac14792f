import { Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';
import { DedupModule } from '../dedup/dedup.module.js';
import { SOURCE_CONFIG } from '../sources/source-config.js';
import type { SourceConfig } from '../sources/source-registry.js';
import { TenantBindings } from '../tenants/tenant-bindings.js';
import { WebhookIngress } from './webhook-ingress.js';
import { WebhookSources } from './webhook-sources.service.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

/**
 * The webhook routes. The sources' classes are not listed here: WebhookSources builds one of
 * every class in the source registry (src/sources/source-registry.ts) when the app starts.
 */
@Module({
  imports: [DedupModule],
  controllers: [WebhooksController],
  providers: [
    WebhooksService,
    WebhookIngress,
    TenantBindings,
    // The sources read their settings through SOURCE_CONFIG: AppConfig has every field they declare.
    { provide: SOURCE_CONFIG, inject: [AppConfig], useFactory: (config: AppConfig): SourceConfig => config },
    { provide: WebhookSources, inject: [ModuleRef, AppConfig, TenantBindings], useFactory: WebhookSources.create },
  ],
})
export class WebhooksModule {}
