import { Injectable, Logger } from '@nestjs/common';
import { FlushFailure, GroupCommit, workerWriteLimits } from '../queue/group-commit.js';
import { DatabaseSettings } from '../prisma/database.settings.js';
import { WorkerSettings } from '../queue/worker.settings.js';
import { ForwardClient, ForwardFailure } from '../outbound/forward-client.js';
import { LeaseLostError, ShutdownInterruption } from '../queue/attempt-interruptions.js';
import type { JobProcessor, ProcessOutcome } from '../queue/job-queue.js';
import { OutcomeRecorder } from '../queue/outcome-recorder.js';
import { retryAfterFailure, RetryLaterError } from '../queue/retry-policy.js';
import { DestinationGates } from './destination-gates.service.js';
import { DestinationJobsRepository } from './destination-jobs.repository.js';
import { DestinationLeasesRepository } from './destination-leases.repository.js';
import { Destinations } from './destinations.js';
import type { DeliveryOutcome, DeliveryOutcomeStatus, LeasedDelivery } from './leased-delivery.js';

/**
 * One attempt at one delivery: the event POSTed to its destination (the forward step's request,
 * signed with the destination's secrets), then the outcome written where the lease still holds:
 * processed, or a retry at the destination's own backoff, or dead at its own maxAttempts.
 * Outcomes of concurrent attempts share statements (group commit).
 */
@Injectable()
export class DestinationProcessor implements JobProcessor<LeasedDelivery> {
  private readonly logger = new Logger('Destinations');
  private readonly outcomes: GroupCommit<DeliveryOutcome, DeliveryOutcomeStatus>;
  private readonly recorder = new OutcomeRecorder(this.logger, 'delivery');

  constructor(
    private readonly config: WorkerSettings,
    database: DatabaseSettings,
    private readonly destinations: Destinations,
    private readonly repository: DestinationJobsRepository,
    private readonly leases: DestinationLeasesRepository,
    private readonly client: ForwardClient,
    private readonly gates: DestinationGates,
  ) {
    this.outcomes = new GroupCommit((batch) => this.write(batch), workerWriteLimits(database.DB_POOL_SIZE));
  }

  async process(job: LeasedDelivery, signal: AbortSignal): Promise<ProcessOutcome> {
    const destination = this.destinations.named(job.destination);
    if (!destination) return this.giveBack(job); // disabled since it was leased: leave it for later
    const base = { messageId: job.event.key, destination: job.destination, leaseToken: job.leaseToken, maxAttempts: destination.config.maxAttempts };
    try {
      const answer = await this.client.post(destination.target, job.event, job, signal);
      const success = { ...base, result: JSON.stringify(answer), error: null, delayMs: 0, verdict: 'success' as const, pauseMs: 0 };
      const status = await this.recorder.within(job, () => this.outcomes.submit([success]));
      return status[0] === 'lease-lost' ? this.leaseLost(job) : { outcome: 'processed' };
    } catch (error) {
      const reason: unknown = signal.aborted ? signal.reason : error;
      if (reason instanceof LeaseLostError) return this.leaseLost(job);
      if (reason instanceof ShutdownInterruption) return this.giveBack(job);
      const message = this.recorder.errorText(reason instanceof Error ? reason.message : String(reason));
      const { delayMs, requestedMs } = retryAfterFailure(job.attempt, reason, { baseMs: this.config.RETRY_BASE_MS, maxMs: this.config.RETRY_MAX_MS });
      const failure = { ...base, result: null, error: message, delayMs, verdict: verdictOf(reason), pauseMs: requestedMs ?? 0 };
      const [status] = await this.recorder.within(job, () => this.outcomes.submit([failure]));
      return this.recorder.failed(job, base.maxAttempts, `failed: ${message}`, status, delayMs);
    }
  }

  private async giveBack(job: LeasedDelivery): Promise<ProcessOutcome> {
    await this.leases.release([job]);
    return { outcome: 'released' };
  }

  private leaseLost(job: LeasedDelivery): ProcessOutcome {
    return this.recorder.leaseLost(job);
  }

  private async write(batch: DeliveryOutcome[][]): Promise<Array<DeliveryOutcomeStatus[] | FlushFailure>> {
    const outcomes = batch.flat();
    const statuses = await this.repository.finish(outcomes);
    // The breakers learn from what was written; failing to update them costs no delivery, so it is only logged.
    const written = outcomes.filter((o) => statuses.get(`${o.destination}/${o.messageId}`) !== 'lease-lost');
    await this.gates.report(written).catch((error: Error) => this.logger.warn(`updating the destinations' circuit breakers failed: ${error.message}`));
    return batch.map((items) => items.map((o) => statuses.get(`${o.destination}/${o.messageId}`)!));
  }
}

/**
 * What a failure says of the destination: a 5xx, a timeout or a refused connection count
 * toward its circuit; a 4xx is this event's problem; a Retry-After (429, 503) is honoured as a
 * pause of the whole destination rather than counted.
 */
function verdictOf(reason: unknown): 'failure' | 'neutral' {
  if (reason instanceof RetryLaterError) return 'neutral';
  if (reason instanceof ForwardFailure && reason.kind === 'status') return (reason.status ?? 500) >= 500 ? 'failure' : 'neutral';
  return 'failure';
}
