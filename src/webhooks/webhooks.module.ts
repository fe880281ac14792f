import { Module } from '@nestjs/common';
import { DedupModule } from '../dedup/dedup.module.js';
import { GenericSource } from './sources/generic.source.js';
import { MetaSource } from './sources/meta.source.js';
import { WasenderSource } from './sources/wasender.source.js';
import { WebhookSources } from './sources/webhook-sources.service.js';
import { WebhookIngress } from './webhook-ingress.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

@Module({
  imports: [DedupModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhookIngress, WebhookSources, MetaSource, WasenderSource, GenericSource],
})
export class WebhooksModule {}
