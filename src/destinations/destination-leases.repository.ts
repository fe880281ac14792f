import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import { withConflictRetries } from '../queue/database-errors.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { LeasedDelivery } from './leased-delivery.js';

/** The heartbeat and the give-back of leased deliveries (DestinationJobsRepository leases and finishes them). */
@Injectable()
export class DestinationLeasesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The heartbeat: moves the leases still held forward; returns the tokens still held. */
  async renew(jobs: LeasedDelivery[], leaseSeconds: number): Promise<Set<string>> {
    const rows = await withConflictRetries(() => this.prisma.$queryRaw<{ token: string }[]>`
      ${stillHeld(jobs)}
      UPDATE destination_jobs AS j SET due_at = now() + ${leaseSeconds}::int * interval '1 second'
      FROM owned o WHERE j.message_id = o.message_id AND j.destination = o.destination
      RETURNING j.lease_token::text AS token`);
    return new Set(rows.map((r) => r.token));
  }

  /** Gives deliveries back unfinished (shutdown): due at once, the interrupted attempt not counted. */
  release(jobs: LeasedDelivery[]): Promise<number> {
    if (jobs.length === 0) return Promise.resolve(0);
    return withConflictRetries(() => this.prisma.$executeRaw`
      ${stillHeld(jobs)}
      UPDATE destination_jobs AS j SET
        status = (CASE WHEN j.attempts <= 1 THEN 'received' ELSE 'failed' END)::message_status,
        attempts = greatest(j.attempts - 1, 0), due_at = now(), lease_token = NULL, leased_by = NULL
      FROM owned o WHERE j.message_id = o.message_id AND j.destination = o.destination`);
  }
}

/**
 * `owned`: the rows of `jobs` whose lease this process still holds, locked in key order (as
 * every statement on destination_jobs locks them, so none can deadlock with another).
 */
function stillHeld(jobs: LeasedDelivery[]): Prisma.Sql {
  return Prisma.sql`WITH owned AS (
    SELECT j.message_id, j.destination FROM unnest(${jobs.map((j) => j.event.key)}::text[], ${jobs.map((j) => j.destination)}::text[],
      ${jobs.map((j) => j.leaseToken)}::uuid[]) AS r(message_id, destination, token)
    JOIN destination_jobs j ON j.message_id = r.message_id AND j.destination = r.destination AND j.lease_token = r.token
    ORDER BY j.message_id, j.destination
    FOR UPDATE OF j
  )`;
}
