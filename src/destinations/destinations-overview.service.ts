import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';
import { DestinationGatesRepository } from './destination-gates.repository.js';
import { Destinations } from './destinations.js';

/** One destination as GET /destinations shows it. */
export interface DestinationOverview {
  name: string;
  enabled: boolean;
  /** closed: deliveries go out; open: paused after consecutive failures (one probe per interval); paused: a Retry-After is running. */
  state: 'closed' | 'open' | 'paused';
  consecutiveFailures: number;
  openedAt: string | null;
  pausedUntil: string | null;
  rateLimit: { perSecond: number; burst: number } | null;
  ordering: 'none' | 'conversation';
  maxAttempts: number;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Deliveries not finished yet (received, processing, failed), and the oldest one's age. */
  backlog: number;
  oldestUnfinishedAgeSeconds: number | null;
  dead: number;
}

/** The configured destinations with their live state, for operators (GET /destinations) and metrics. */
@Injectable()
export class DestinationsOverviewService {
  constructor(
    private readonly destinations: Destinations,
    private readonly gates: DestinationGatesRepository,
    private readonly prisma: PrismaService,
  ) {}

  async list(): Promise<DestinationOverview[]> {
    const [gates, counts] = await Promise.all([this.gates.gates(), this.counts()]);
    const gateOf = new Map(gates.map((g) => [g.destination, g]));
    const countOf = new Map(counts.map((c) => [c.destination, c]));
    return this.destinations.all.map((d) => {
      const gate = gateOf.get(d.name);
      const count = countOf.get(d.name);
      return {
        name: d.name,
        enabled: d.enabled,
        state: gate?.circuit === 'open' ? 'open' : gate?.paused ? 'paused' : 'closed',
        consecutiveFailures: gate?.failures ?? 0,
        openedAt: gate?.openedAt?.toISOString() ?? null,
        pausedUntil: gate?.paused ? (gate.pausedUntil?.toISOString() ?? null) : null,
        rateLimit: d.rateLimit,
        ordering: d.ordering,
        maxAttempts: d.maxAttempts,
        lastError: gate?.lastError ?? null,
        lastErrorAt: gate?.lastErrorAt?.toISOString() ?? null,
        backlog: count?.backlog ?? 0,
        oldestUnfinishedAgeSeconds: count?.oldest_age ?? null,
        dead: count?.dead ?? 0,
      };
    });
  }

  /** Through destination_jobs_due_idx for the unfinished ones; dead ones are counted with a scan of the table. */
  private counts() {
    return this.prisma.$queryRaw<{ destination: string; backlog: number; dead: number; oldest_age: number | null }[]>`
      SELECT destination,
        count(*) FILTER (WHERE status IN ('received', 'processing', 'failed'))::int AS backlog,
        count(*) FILTER (WHERE status = 'dead')::int AS dead,
        extract(epoch FROM now() - min(created_at) FILTER (WHERE status IN ('received', 'processing', 'failed')))::float8 AS oldest_age
      FROM destination_jobs WHERE status <> 'processed' GROUP BY destination`;
  }
}
