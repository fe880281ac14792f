import { Injectable, Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { FlushFailure, GroupCommit, workerWriteLimits } from '../queue/group-commit.js';
import { toStorableJson } from '../common/storable-json.js';
import { DatabaseSettings } from '../prisma/database.settings.js';
import { WorkerSettings } from '../queue/worker.settings.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { raceWithSignal, type Abandonable } from '../queue/abandonable.js';
import { AttemptDeadlineError, LeaseLostError, ShutdownInterruption } from '../queue/attempt-interruptions.js';
import { effectKey } from '../outbound/effect-key.js';
import type { JobProcessor, ProcessOutcome } from '../queue/job-queue.js';
import type { AttemptFailure, FailureOutcome, LeasedEvent, StepRecord } from './leased-event.js';
import { OutcomeRecorder } from '../queue/outcome-recorder.js';
import { retryAfterFailure } from '../queue/retry-policy.js';
import { StepRegistry } from './step-registry.service.js';
import { WorkQueueRepository } from './work-queue.repository.js';

/**
 * Runs one leased event through its steps. Each completed step is recorded (with the event's
 * state, in one statement) before the next starts, so a retry resumes where this attempt
 * stopped and a completed step never runs again.
 */
@Injectable()
export class EventProcessor implements JobProcessor<LeasedEvent> {
  private readonly logger = new Logger('Worker');
  private readonly records: GroupCommit<StepRecord, boolean>;
  private readonly failures: GroupCommit<AttemptFailure, FailureOutcome>;
  private readonly outcomes = new OutcomeRecorder(this.logger, 'event');

  constructor(
    private readonly queue: WorkQueueRepository,
    private readonly registry: StepRegistry,
    private readonly config: WorkerSettings,
    database: DatabaseSettings,
    private readonly metrics: MetricsService,
  ) {
    this.records = new GroupCommit((batch) => this.writeRecords(batch), workerWriteLimits(database.DB_POOL_SIZE));
    this.failures = new GroupCommit(async (batch) => {
      const outcomes = await this.queue.fail(batch.flat(), config.MAX_ATTEMPTS);
      return batch.map((failures) => failures.map((f) => outcomes.get(f.key)!));
    }, workerWriteLimits(database.DB_POOL_SIZE));
  }

  async process(leased: LeasedEvent, signal: AbortSignal): Promise<ProcessOutcome> {
    const { event, leaseToken, attempt } = leased;
    const pending = this.registry.stepsFor(event).filter((s) => !(s.name in leased.completed));
    const results: Record<string, unknown> = { ...leased.completed };
    const base = { key: event.key, leaseToken, attempt };
    let current = '(finish)';
    let running: Abandonable<unknown> | null = null;
    try {
      for (const [index, { name, step }] of pending.entries()) {
        current = name;
        signal.throwIfAborted();
        const context = { idempotencyKey: `${effectKey(event.key, leased.replay)}:${name}`, attempt, replay: leased.replay, receivedAt: leased.receivedAt, results, signal };
        // Raced against the signal: a step that ignores it cannot hold the attempt past its deadline.
        running = raceWithSignal(Promise.resolve().then(() => step.run(event, context)), signal);
        const value = await this.metrics.timeStep(name, () => running!.result);
        const result = toStorableJson(value ?? null);
        const finish = index === pending.length - 1;
        if (!(await this.record(leased, { ...base, step: name, result, finish }))) return this.leaseLost(leased);
        results[name] = value ?? null;
      }
      if (pending.length === 0 && !(await this.record(leased, { ...base, step: null, result: null, finish: true }))) {
        return this.leaseLost(leased);
      }
      return { outcome: 'processed' };
    } catch (error) {
      const reason: unknown = signal.aborted ? signal.reason : error;
      if (reason instanceof LeaseLostError) return this.leaseLost(leased);
      if (reason instanceof ShutdownInterruption) {
        await this.queue.release([{ key: event.key, leaseToken }]);
        return { outcome: 'released' };
      }
      if (reason instanceof AttemptDeadlineError && running && !running.settled()) {
        // The lease stays held (and renewed) while the step runs on, so no one else starts it;
        // the worker has already given its slot to other events.
        const outran = await this.outlives(running, reason.deadlineMs);
        return this.fail(leased, current, new Error(`${reason.message}; the step ignored the abort and ${outran}`));
      }
      return this.fail(leased, current, reason);
    }
  }

  /** Waits (at most one more deadline) for a step that ignored its abort; says how that ended. */
  private async outlives(running: Abandonable<unknown>, graceMs: number): Promise<string> {
    const started = Date.now();
    const finished = await Promise.race([running.finished.then(() => true), sleep(graceMs, false, { ref: false })]);
    return finished ? `finished ${Date.now() - started} ms later` : `was still running ${graceMs} ms later (left behind)`;
  }

  private async record(leased: LeasedEvent, record: StepRecord): Promise<boolean> {
    return (await this.outcomes.within(leased, () => this.records.submit([record])))[0];
  }

  private async fail(leased: LeasedEvent, step: string, error: unknown): Promise<ProcessOutcome> {
    const message = this.outcomes.errorText(`${step}: ${error instanceof Error ? error.message : String(error)}`);
    const { delayMs: delay } = retryAfterFailure(leased.attempt, error, { baseMs: this.config.RETRY_BASE_MS, maxMs: this.config.RETRY_MAX_MS });
    const failure = { key: leased.event.key, leaseToken: leased.leaseToken, step, error: message, delayMs: delay };
    const [outcome] = await this.outcomes.within(leased, () => this.failures.submit([failure]));
    return this.outcomes.failed(leased, this.config.MAX_ATTEMPTS, `failed at ${message}`, outcome, delay);
  }

  private leaseLost(leased: LeasedEvent): ProcessOutcome {
    return this.outcomes.leaseLost(leased);
  }

  private async writeRecords(batch: StepRecord[][]): Promise<Array<boolean[] | FlushFailure>> {
    const owned = await this.queue.record(batch.flat());
    return batch.map((records) => records.map((r) => owned.has(r.key)));
  }
}
