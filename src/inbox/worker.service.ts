import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DatabaseSettings } from '../prisma/database.settings.js';
import { WorkerSettings } from '../queue/worker.settings.js';
import type { ProcessingOutcome } from '../metrics/metric-labels.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { EventProcessor } from './event-processor.service.js';
import type { JobQueue } from '../queue/job-queue.js';
import type { LeasedEvent } from './leased-event.js';
import { QueueWorker } from '../queue/queue-worker.js';
import { WorkQueueRepository } from './work-queue.repository.js';

/**
 * The inbox's worker: leases due events (WORKER_CONCURRENCY at a time) and runs their steps.
 * Woken by the messages insert trigger's NOTIFY on `messages_inbox`.
 */
@Injectable()
export class WorkerService extends QueueWorker<LeasedEvent> implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    config: WorkerSettings,
    database: DatabaseSettings,
    repository: WorkQueueRepository,
    processor: EventProcessor,
    private readonly metrics: MetricsService,
  ) {
    const queue: JobQueue<LeasedEvent> = {
      lease: (limit, workerId) => repository.lease(limit, config.LEASE_SECONDS, config.MAX_ATTEMPTS, workerId),
      renew: (jobs) => repository.renew(jobs, config.LEASE_SECONDS),
      release: (jobs) => repository.release(jobs),
    };
    super(config, database, queue, processor, { noun: 'event', channel: 'messages_inbox', concurrency: config.WORKER_CONCURRENCY });
  }

  onApplicationBootstrap(): void {
    if (this.settings.WORKER_ENABLED) this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  protected leased(job: LeasedEvent): void {
    this.metrics.eventLeased(job.receivedAt, job.attempt);
  }

  protected ended(_job: LeasedEvent, outcome: ProcessingOutcome | 'lease-lost'): void {
    this.metrics.processingOutcome(outcome);
  }

  protected expired(keys: string[]): void {
    this.metrics.processingOutcome('dead', keys.length);
  }
}
