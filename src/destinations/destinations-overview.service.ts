import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.js';
import { DestinationGatesRepository } from './destination-gates.repository.js';
import { backlogByDestination } from './destination-jobs.sql.js';
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
    private readonly db: Database,
  ) {}

  async list(): Promise<DestinationOverview[]> {
    const [gates, counts] = await Promise.all([this.gates.gates(), backlogByDestination(this.db).execute()]);
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
}
