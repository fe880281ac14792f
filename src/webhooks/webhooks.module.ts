import { Module } from '@nestjs/common';
import { DedupModule } from '../dedup/dedup.module.js';
import { Dialog360Source } from './sources/dialog360.source.js';
import { EvolutionSource } from './sources/evolution.source.js';
import { GenericSource } from './sources/generic.source.js';
import { MetaSource } from './sources/meta.source.js';
import { TwilioSource } from './sources/twilio.source.js';
import { WahaSource } from './sources/waha.source.js';
import { WasenderSource } from './sources/wasender.source.js';
import { TenantBindings } from '../tenants/tenant-bindings.js';
import { WebhookSources } from './sources/webhook-sources.service.js';
import { WebhookIngress } from './webhook-ingress.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

const SOURCES = [MetaSource, WasenderSource, GenericSource, TwilioSource, Dialog360Source, WahaSource, EvolutionSource];

@Module({
  imports: [DedupModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookIngress, WebhookSources, TenantBindings, ...SOURCES],
})
export class WebhooksModule {}
