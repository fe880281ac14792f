/** What every leased unit of work has: an event of the inbox, or one event's delivery to one destination. */
export interface LeasedJob {
  /** Names the job in logs (phone numbers in it are redacted there). */
  key: string;
  /** Fences every write of this attempt: once another worker re-leases the job, it no longer matches. */
  leaseToken: string;
  /** 1 on the first attempt; a lease that expired counted as one. */
  attempt: number;
  /** When the event was acknowledged to the source. */
  receivedAt: Date;
  /**
   * Until when (this process's clock, ms) the lease is surely held: set when leased, moved on by
   * every renewal. Writes are retried through a database blip only until then.
   */
  validUntil: number;
}

/** A table of jobs that workers lease, renew and give back (src/queue/queue-worker.ts runs it). */
export interface JobQueue<J extends LeasedJob> {
  /** Up to `limit` due jobs, leased for LEASE_SECONDS; `dead`: expired leases that had used their last attempt. */
  lease(limit: number, workerId: string): Promise<{ leased: J[]; dead: string[] }>;
  /** Moves the leases still held forward; returns the tokens still held. */
  renew(jobs: J[]): Promise<Set<string>>;
  /** Gives jobs back unfinished (shutdown), due at once, the interrupted attempt not counted; returns how many were held. */
  release(jobs: J[]): Promise<number>;
}

export type ProcessOutcome =
  | { outcome: 'processed' | 'dead' | 'lease-lost' | 'released' }
  | { outcome: 'failed'; retryInMs: number };

/** Runs one leased job to an outcome it has recorded (or to lease-lost). */
export interface JobProcessor<J extends LeasedJob> {
  process(job: J, signal: AbortSignal): Promise<ProcessOutcome>;
}
