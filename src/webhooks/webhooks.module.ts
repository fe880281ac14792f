import { Module } from '@nestjs/common';
import { DedupModule } from '../dedup/dedup.module.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

@Module({ imports: [DedupModule], controllers: [WebhooksController], providers: [WebhooksService] })
export class WebhooksModule {}
