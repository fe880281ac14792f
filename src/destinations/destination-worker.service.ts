import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DatabaseSettings } from '../prisma/database.settings.js';
import { WorkerSettings } from '../queue/worker.settings.js';
import type { ProcessingOutcome } from '../metrics/metric-labels.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { JobQueue } from '../queue/job-queue.js';
import { QueueWorker } from '../queue/queue-worker.js';
import { DestinationJobsRepository } from './destination-jobs.repository.js';
import { DestinationLeasesRepository } from './destination-leases.repository.js';
import { DestinationProcessor } from './destination-processor.service.js';
import { DestinationGates } from './destination-gates.service.js';
import { Destinations } from './destinations.js';
import type { LeasedDelivery } from './leased-delivery.js';

/**
 * The destinations' worker: leases due deliveries to enabled destinations and sends them, beside
 * the inbox's worker. Each destination has WORKER_CONCURRENCY slots of its own, so a slow one
 * fills only its own and never makes a healthy one wait (bench/README.md measured that it did
 * with one shared pool). Runs where the worker runs, when DESTINATIONS_FILE names any
 * destination. Woken by the fan-out in its own process (which made the deliveries), by NOTIFY
 * on `destination_jobs` from the operator API's replays, and otherwise by its poll. The
 * fan-out's insert notifies nobody else: a trigger's NOTIFY takes a lock every committing
 * insert queues on, and it was the most common wait under load (bench/README.md).
 */
@Injectable()
export class DestinationWorker extends QueueWorker<LeasedDelivery> implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    config: WorkerSettings,
    database: DatabaseSettings,
    repository: DestinationJobsRepository,
    leases: DestinationLeasesRepository,
    processor: DestinationProcessor,
    private readonly destinations: Destinations,
    private readonly gates: DestinationGates,
    private readonly metrics: MetricsService,
  ) {
    const inFlight = new Map<string, number>();
    const room = (destination: string) => config.WORKER_CONCURRENCY - (inFlight.get(destination) ?? 0);
    const queue: JobQueue<LeasedDelivery> = {
      lease: async (limit, workerId) => repository.lease(limit, config.LEASE_SECONDS, workerId, await gates.quotas(limit, room)),
      renew: (jobs) => leases.renew(jobs, config.LEASE_SECONDS),
      release: (jobs) => leases.release(jobs),
    };
    const concurrency = config.WORKER_CONCURRENCY * Math.max(1, destinations.enabled.length);
    super(config, database, queue, processor, { noun: 'delivery', channel: 'destination_jobs', concurrency });
    this.sending = inFlight;
  }

  /** Deliveries being sent by this process, per destination. */
  private readonly sending: Map<string, number>;

  async onApplicationBootstrap(): Promise<void> {
    if (!this.settings.WORKER_ENABLED || this.destinations.enabled.length === 0) return;
    await this.gates.ensureRows();
    this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  protected leased(job: LeasedDelivery): void {
    this.sending.set(job.destination, (this.sending.get(job.destination) ?? 0) + 1);
  }

  protected ended(job: LeasedDelivery, outcome: ProcessingOutcome | 'lease-lost'): void {
    this.sending.set(job.destination, (this.sending.get(job.destination) ?? 1) - 1);
    this.metrics.destinationOutcome(job.destination, outcome);
  }

  /** Keys are `<destination>/<event key>`. */
  protected expired(keys: string[]): void {
    for (const key of keys) this.metrics.destinationOutcome(key.slice(0, key.indexOf('/')), 'dead');
  }
}
