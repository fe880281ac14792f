import { Injectable } from '@nestjs/common';
import { withConflictRetries } from '../queue/database-errors.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { DELIVERIES } from './delivery-queue.sql.js';
import type { LeasedDelivery } from './leased-delivery.js';

/** The heartbeat and the give-back of leased deliveries (DestinationJobsRepository leases and finishes them). */
@Injectable()
export class DestinationLeasesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The heartbeat: moves the leases still held forward; returns the tokens still held. */
  async renew(jobs: LeasedDelivery[], leaseSeconds: number): Promise<Set<string>> {
    const values = [...held(jobs), leaseSeconds];
    const { rows } = await withConflictRetries(() => this.prisma.driverStatement<{ token: string }>(DELIVERIES.renew, values));
    return new Set(rows.map((r) => r.token));
  }

  /** Gives deliveries back unfinished (shutdown): due at once, the interrupted attempt not counted. */
  async release(jobs: LeasedDelivery[]): Promise<number> {
    if (jobs.length === 0) return 0;
    return (await withConflictRetries(() => this.prisma.driverStatement(DELIVERIES.release, held(jobs)))).rowCount ?? 0;
  }
}

/** The keys' columns and the tokens, in DELIVERIES' order. */
function held(jobs: LeasedDelivery[]): unknown[] {
  return [jobs.map((j) => j.event.key), jobs.map((j) => j.destination), jobs.map((j) => j.leaseToken)];
}
