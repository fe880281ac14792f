import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventProcessor } from './event-processor.service.js';
import { StepRegistry } from './step-registry.service.js';
import { WorkQueueRepository } from './work-queue.repository.js';
import { WorkerService } from './worker.service.js';

/** The background worker. Its steps are any @WorkerStep providers in the application (see src/steps). */
@Module({
  imports: [DiscoveryModule],
  providers: [WorkQueueRepository, StepRegistry, EventProcessor, WorkerService],
  exports: [WorkerService, StepRegistry],
})
export class WorkerModule {}
