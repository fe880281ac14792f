import { Module } from '@nestjs/common';
import { RetentionRepository } from './retention.repository.js';
import { RetentionService } from './retention.service.js';

/**
 * The periodic purge of finished events and receipts (RETENTION_* settings). Part of
 * CoreModule, so it runs in the HTTP service and in every standalone worker; concurrent
 * runs split the work between them.
 */
@Module({ providers: [RetentionRepository, RetentionService], exports: [RetentionService] })
export class RetentionModule {}
