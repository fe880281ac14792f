import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatabaseSettings } from '../prisma/database.settings.js';
import type { WorkerSettings } from './worker.settings.js';
import { redactPhoneNumbers } from '../logging/redact.js';
import type { ProcessingOutcome } from '../metrics/metric-labels.js';
import { AttemptDeadlineError, LeaseLostError, ShutdownInterruption } from './attempt-interruptions.js';
import type { JobProcessor, JobQueue, LeasedJob } from './job-queue.js';
import { LeaseKeeper } from './lease-keeper.js';
import { NotificationListener } from './notification-listener.js';

interface InFlight<J> {
  lease: J;
  controller: AbortController;
  done: Promise<void>;
}

/** What sets one queue's worker apart. */
export interface QueueWorkerOptions {
  /** Names a job in logs: `event`, `delivery`. */
  noun: string;
  /** The NOTIFY channel that says new work is due. */
  channel: string;
  concurrency: number;
}

/**
 * The processing loop of one queue in one process: leases due jobs while it has free slots,
 * hands each to the queue's processor, and sleeps until a notification, a freed slot or the
 * poll interval. While a backlog waits, slots are refilled a quarter of the concurrency at a
 * time rather than one by one as attempts finish: one lease statement per job was most of the
 * worker's database round trips (bench/README.md). Every attempt's lease is renewed while it
 * runs (LeaseKeeper); an attempt that runs past ATTEMPT_TIMEOUT_SECONDS is aborted and gives up
 * its slot at once, even if its step ignores the abort. On shutdown it stops leasing, lets
 * in-flight jobs finish within SHUTDOWN_TIMEOUT_MS and releases the rest. The inbox's events
 * (WorkerService) and the destinations' deliveries (DestinationWorker) each have one.
 */
export abstract class QueueWorker<J extends LeasedJob> {
  protected readonly logger = new Logger('Worker');
  readonly workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`.slice(-128);
  /** Attempts holding a slot, by lease token (the same job may be leased again by this process). */
  private readonly inFlight = new Map<string, InFlight<J>>();
  /** Attempts past their deadline whose step has not stopped yet: no slot, but their lease is kept. */
  private readonly overrunning = new Map<string, InFlight<J>>();
  private readonly listener: NotificationListener;
  private readonly leases: LeaseKeeper<J>;
  private running = false;
  private loop: Promise<void> | null = null;
  private moreMayBeDue = true;
  /** The last lease filled every free slot: a backlog is waiting, so slots are refilled in batches. */
  private backlogged = false;
  /** Counts notifications, so one that arrives while a lease query runs is not lost. */
  private notifications = 0;
  private wakeUp: (() => void) | null = null;

  protected constructor(
    protected readonly settings: WorkerSettings,
    database: DatabaseSettings,
    private readonly queue: JobQueue<J>,
    private readonly processor: JobProcessor<J>,
    private readonly options: QueueWorkerOptions,
  ) {
    this.listener = new NotificationListener(database, options.channel);
    this.leases = new LeaseKeeper(settings.LEASE_SECONDS, (jobs) => queue.renew(jobs));
  }

  /** Counts a leased job (lag and attempt metrics). */
  protected abstract leased(job: J): void;
  /** Counts how one attempt ended. */
  protected abstract ended(job: J, outcome: ProcessingOutcome | 'lease-lost'): void;
  /** Counts jobs that became dead when leased (their last lease had expired), by key. */
  protected abstract expired(keys: string[]): void;

  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.settings.WORKER_LISTEN) this.listener.start(() => this.wakeForDueWork());
    this.loop = this.run();
    this.logger.log(`${this.options.noun} worker ${this.workerId} started: ${this.options.concurrency} at a time, lease ${this.settings.LEASE_SECONDS} s`);
  }

  /** New work is due (a notification, or this process just created some): look at once. */
  wakeForDueWork(): void {
    this.notifications++;
    this.moreMayBeDue = true;
    this.wake();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    await this.listener.stop();
    const attempts = () => [...this.inFlight.values(), ...this.overrunning.values()];
    const all = () => Promise.allSettled(attempts().map((f) => f.done));
    if (attempts().length > 0 && !(await finishesWithin(all(), this.settings.SHUTDOWN_TIMEOUT_MS))) {
      for (const f of attempts()) f.controller.abort(new ShutdownInterruption());
      await finishesWithin(all(), 1000); // attempts release themselves once aborted
      const released = await this.queue.release(attempts().map((f) => f.lease));
      this.logger.warn(`shutdown: ${released} unfinished ${this.options.noun}(s) released for another worker`);
    }
    await this.leases.stop();
    this.logger.log(`${this.options.noun} worker ${this.workerId} stopped`);
  }

  private async run(): Promise<void> {
    let failures = 0;
    let nextPollAt = 0;
    const refillAt = Math.max(1, Math.floor(this.options.concurrency / 4));
    while (this.running) {
      const free = this.options.concurrency - this.inFlight.size;
      const canLease = free >= (this.backlogged ? refillAt : 1);
      if (canLease && (this.moreMayBeDue || Date.now() >= nextPollAt)) {
        try {
          nextPollAt = Date.now() + this.settings.WORKER_POLL_MS;
          const seen = this.notifications;
          const { leased, dead } = await this.queue.lease(free, this.workerId);
          failures = 0;
          this.expired(dead);
          for (const key of dead) this.logger.error(`${this.options.noun} ${redactPhoneNumbers(key)}: lease expired on its last attempt: dead`);
          if (!this.running) {
            await this.queue.release(leased);
            break;
          }
          leased.forEach((lease) => this.begin(lease));
          // A full batch means more may be waiting; a short one that nothing is due until woken.
          this.backlogged = leased.length + dead.length === free;
          this.moreMayBeDue = this.backlogged || this.notifications !== seen;
          if (this.moreMayBeDue) continue;
        } catch (error) {
          this.backlogged = false;
          const delay = Math.min(30_000, this.settings.WORKER_POLL_MS * 2 ** failures++);
          nextPollAt = Date.now() + delay;
          this.logger.warn(`leasing ${this.options.noun}s failed (${(error as Error).message}); retrying in ${delay} ms`);
        }
      }
      // Saturated (or a backlog waits for a batch of slots): wait for a slot to free. Otherwise: for a notification or the next poll.
      await this.sleepUntilWoken(canLease ? Math.max(0, nextPollAt - Date.now()) : undefined);
    }
  }

  private begin(lease: J): void {
    const token = lease.leaseToken;
    const controller = new AbortController();
    const deadlineMs = this.settings.ATTEMPT_TIMEOUT_SECONDS * 1000;
    const deadline = setTimeout(() => {
      controller.abort(new AttemptDeadlineError(deadlineMs));
      this.freeSlot(token); // whether or not the step stops: its slot goes to other events now
    }, deadlineMs);
    this.leases.hold(lease, () => controller.abort(new LeaseLostError()));
    this.leased(lease);
    const done = this.processor
      .process(lease, controller.signal)
      .then((result) => {
        this.ended(lease, result.outcome);
        if (result.outcome === 'failed' && result.retryInMs < this.settings.WORKER_POLL_MS) {
          setTimeout(() => this.wakeForDueWork(), result.retryInMs).unref();
        }
      })
      .catch((error: Error) => {
        this.ended(lease, 'error');
        // Nothing was recorded (the database is unreachable?): the lease expires and another attempt follows.
        this.logger.error(`${this.options.noun} ${redactPhoneNumbers(lease.key)}: could not record its outcome: ${error.message}`);
      })
      .finally(() => {
        clearTimeout(deadline);
        this.leases.letGo(token);
        this.overrunning.delete(token);
        this.inFlight.delete(token);
        this.wake();
      });
    this.inFlight.set(token, { lease, controller, done });
  }

  private freeSlot(token: string): void {
    const attempt = this.inFlight.get(token);
    if (!attempt) return;
    this.inFlight.delete(token);
    this.overrunning.set(token, attempt);
    this.wake();
  }

  private wake(): void {
    this.wakeUp?.();
  }

  private sleepUntilWoken(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? null : setTimeout(() => done(), ms);
      const done = () => {
        if (timer) clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      this.wakeUp = done;
    });
  }
}

async function finishesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const controller = new AbortController();
  const timeout = sleep(ms, false, { signal: controller.signal }).catch(() => false);
  const finished = await Promise.race([work.then(() => true), timeout]);
  controller.abort();
  return finished;
}
