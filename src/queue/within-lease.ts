import type { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { redactPhoneNumbers } from '../logging/redact.js';
import { isTransient } from './database-errors.js';
import type { LeasedJob } from './job-queue.js';

/** A write is retried through a database blip only while this much of the lease is left. */
const LEASE_MARGIN_MS = 1000;

/**
 * A write of an attempt's outcome, retried with backoff through a database blip (a restart, a
 * dropped connection) for as long as the lease surely holds: losing it would cost a whole lease
 * period and a repeated effect. After that it fails, and the lease's expiry decides.
 */
export async function writeWithinLease<T>(job: LeasedJob, write: () => Promise<T>, logger: Logger, noun: string): Promise<T> {
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    try {
      return await write();
    } catch (error) {
      if (!isTransient(error) || Date.now() + delay > job.validUntil - LEASE_MARGIN_MS) throw error;
      logger.warn(`${noun} ${redactPhoneNumbers(job.key)}: recording its outcome failed (${(error as Error).message}); retrying in ${delay} ms`);
      await sleep(delay);
    }
  }
}
