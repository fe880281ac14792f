import { Module } from '@nestjs/common';
import { OutboundModule } from '../outbound/outbound.module.js';
import { DestinationGatesRepository } from './destination-gates.repository.js';
import { DestinationGates } from './destination-gates.service.js';
import { DestinationJobsRepository } from './destination-jobs.repository.js';
import { DestinationLeasesRepository } from './destination-leases.repository.js';
import { DestinationProcessor } from './destination-processor.service.js';
import { DestinationWorker } from './destination-worker.service.js';
import { Destinations } from './destinations.js';
import { DestinationsOverviewService } from './destinations-overview.service.js';

/** DESTINATIONS_FILE's destinations, their deliveries (destination_jobs) and the worker that sends them. */
@Module({
  imports: [OutboundModule],
  providers: [Destinations, DestinationJobsRepository, DestinationLeasesRepository, DestinationGatesRepository, DestinationGates, DestinationProcessor, DestinationWorker, DestinationsOverviewService],
  exports: [Destinations, DestinationJobsRepository, DestinationGatesRepository, DestinationWorker, DestinationsOverviewService],
})
export class DestinationsModule {}
