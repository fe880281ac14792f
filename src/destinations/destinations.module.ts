import { Module } from '@nestjs/common';
import { ForwardModule } from '../steps/forward/forward.module.js';
import { DestinationJobsRepository } from './destination-jobs.repository.js';
import { DestinationProcessor } from './destination-processor.service.js';
import { DestinationWorker } from './destination-worker.service.js';
import { Destinations } from './destinations.js';

/** DESTINATIONS_FILE's destinations, their deliveries (destination_jobs) and the worker that sends them. */
@Module({
  imports: [ForwardModule],
  providers: [Destinations, DestinationJobsRepository, DestinationProcessor, DestinationWorker],
  exports: [Destinations, DestinationJobsRepository, DestinationWorker],
})
export class DestinationsModule {}
