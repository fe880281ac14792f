import { Injectable } from '@nestjs/common';
import { withConflictRetries } from '../queue/database-errors.js';
import { Database } from '../database/database.js';
import { DELIVERIES } from './delivery-queue.sql.js';
import type { LeasedDelivery } from './leased-delivery.js';

/** The heartbeat and the give-back of leased deliveries (DestinationJobsRepository leases and finishes them). */
@Injectable()
export class DestinationLeasesRepository {
  constructor(private readonly db: Database) {}

  /** The heartbeat: moves the leases still held forward; returns the tokens still held. */
  async renew(jobs: LeasedDelivery[], leaseSeconds: number): Promise<Set<string>> {
    const { rows } = await withConflictRetries(() => this.db.run(DELIVERIES.renew.bind({ ...held(jobs), leaseSeconds })));
    return new Set(rows.map((r) => r.token));
  }

  /** Gives deliveries back unfinished (shutdown): due at once, the interrupted attempt not counted. */
  async release(jobs: LeasedDelivery[]): Promise<number> {
    if (jobs.length === 0) return 0;
    const { numAffectedRows } = await withConflictRetries(() => this.db.run(DELIVERIES.release.bind(held(jobs))));
    return Number(numAffectedRows ?? 0);
  }
}

function held(jobs: LeasedDelivery[]) {
  return { message_id: jobs.map((j) => j.event.key), destination: jobs.map((j) => j.destination), tokens: jobs.map((j) => j.leaseToken) };
}
