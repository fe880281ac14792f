import { Injectable } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service.js';
import { DestinationGatesRepository, type DestinationGate, type HealthReport } from './destination-gates.repository.js';
import type { LeaseQuota } from './leased-delivery.js';
import { Destinations } from './destinations.js';

/** How one attempt ended, as far as the destination's health goes. */
export interface AttemptHealth {
  destination: string;
  /** `failure` counts toward the circuit (5xx, timeout, connection error); `neutral` does not (a 4xx is the event's problem). */
  verdict: 'success' | 'failure' | 'neutral';
  /** A Retry-After the destination asked for, ms. */
  pauseMs: number;
  error: string | null;
}

/**
 * The gates in front of each destination, shared through destination_state: which may be
 * leased now and how much (rate limit, open circuit's probe, Retry-After pause), and the
 * breaker's bookkeeping after each batch of attempts.
 */
@Injectable()
export class DestinationGates {
  /** The last gates read; a success is reported only for a destination that was failing. */
  private known = new Map<string, DestinationGate>();

  constructor(
    private readonly destinations: Destinations,
    private readonly repository: DestinationGatesRepository,
    private readonly metrics: MetricsService,
  ) {}

  ensureRows(): Promise<void> {
    return this.repository.ensure(this.destinations.all.map((d) => d.name));
  }

  /**
   * What a lease of `limit` deliveries may take from each enabled destination right now; `room`
   * is how many more of a destination this process may have in flight.
   */
  async quotas(limit: number, room: (destination: string) => number): Promise<LeaseQuota[]> {
    const gates = await this.repository.gates();
    this.known = new Map(gates.map((g) => [g.destination, g]));
    for (const gate of gates) this.metrics.destinationGate(gate.destination, gate.circuit === 'open', gate.paused);
    const quotas: LeaseQuota[] = [];
    for (const { config } of this.destinations.enabled) {
      const gate = this.known.get(config.name);
      const quota = {
        name: config.name, maxAttempts: config.maxAttempts, rateLimit: config.rateLimit,
        ordered: config.ordering === 'conversation', reorderWindowMs: config.reorderWindowMs,
      };
      if (gate?.circuit === 'open') {
        if (!gate.paused && (await this.repository.claimProbe(config.name, config.circuitBreaker.probeIntervalMs))) quotas.push({ ...quota, quota: 1 });
      } else if (!gate?.paused && room(config.name) > 0) quotas.push({ ...quota, quota: Math.min(limit, room(config.name)) });
    }
    return quotas;
  }

  /** Folds attempts into the breakers: written only when something changed or may have. */
  async report(attempts: AttemptHealth[]): Promise<void> {
    const reports = new Map<string, HealthReport>();
    for (const a of attempts) {
      const config = this.destinations.named(a.destination)?.config;
      if (!config) continue;
      const report = reports.get(a.destination) ?? {
        destination: a.destination, successes: 0, failures: 0, pauseMs: 0, lastError: null,
        threshold: config.circuitBreaker.failures, probeIntervalMs: config.circuitBreaker.probeIntervalMs,
      };
      if (a.verdict === 'success') report.successes++;
      if (a.verdict === 'failure') report.failures++;
      report.pauseMs = Math.max(report.pauseMs, a.pauseMs);
      report.lastError = a.error ?? report.lastError;
      reports.set(a.destination, report);
    }
    const needed = [...reports.values()].filter((r) => {
      const gate = this.known.get(r.destination);
      return r.failures > 0 || r.pauseMs > 0 || (gate !== undefined && (gate.failures > 0 || gate.circuit === 'open'));
    });
    if (needed.length > 0) await this.repository.record(needed);
  }
}
