import type { Logger } from '@nestjs/common';
import { redactPhoneNumbers } from '../logging/redact.js';
import type { LeasedJob, ProcessOutcome } from './job-queue.js';
import { writeWithinLease } from './within-lease.js';

/** The most of an error a job's row (last_error) and history keep. */
export const MAX_ERROR_LENGTH = 2000;

/** What a failed attempt's write said: retried later, dead, or (anything else) the lease had gone first. */
export type FailureStatus = 'failed' | 'dead' | 'lease-lost' | 'processed';

/**
 * How a queue's processor writes and tells an attempt's outcome, the same for events and
 * deliveries: the write retried through a database blip while the lease holds, then one log
 * line (a retry a warning, a death an error) and the outcome the worker counts.
 */
export class OutcomeRecorder {
  constructor(
    private readonly logger: Logger,
    /** Names a job in logs: `event`, `delivery`. */
    private readonly noun: string,
  ) {}

  /** `error` as the row keeps it. */
  errorText(error: string): string {
    return error.slice(0, MAX_ERROR_LENGTH);
  }

  within<T>(job: LeasedJob, write: () => Promise<T>): Promise<T> {
    return writeWithinLease(job, write, this.logger, this.noun);
  }

  /** Logs a written failure (`failure`: `failed at <step>: …`, `failed: …`) and says what the worker counts. */
  failed(job: LeasedJob, maxAttempts: number, failure: string, status: FailureStatus, delayMs: number): ProcessOutcome {
    const what = `${this.noun} ${redactPhoneNumbers(job.key)} attempt ${job.attempt}/${maxAttempts} ${redactPhoneNumbers(failure)}`;
    if (status === 'dead') this.logger.error(`${what}; no attempts left: dead`);
    else if (status === 'failed') this.logger.warn(`${what}; retry in ${delayMs} ms`);
    else return this.leaseLost(job);
    return status === 'failed' ? { outcome: 'failed', retryInMs: delayMs } : { outcome: 'dead' };
  }

  /** Another worker holds the job now: nothing of this attempt was written. */
  leaseLost(job: LeasedJob): ProcessOutcome {
    this.logger.warn(`${this.noun} ${redactPhoneNumbers(job.key)}: lease lost before its outcome was recorded; its new owner decides`);
    return { outcome: 'lease-lost' };
  }
}
