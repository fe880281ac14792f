import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module.js';
import { DedupService } from './dedup.service.js';

@Module({ imports: [MessagesModule], providers: [DedupService], exports: [DedupService] })
export class DedupModule {}
