import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import type { SourceName } from '../sources/source-registry.js';
import { registerInboxGauges } from './inbox-gauges.js';
import { InboxStatsRepository } from './inbox-stats.repository.js';
import {
  WEBHOOK_REQUEST_OUTCOMES,
  EVENT_KINDS,
  EVENT_RESULTS,
  type EventResultLabel,
  PROCESSING_OUTCOMES,
  SOURCE_OR_UNKNOWN_LABELS,
  SIGNATURE_FAILURES,
  SOURCE_LABELS,
  type WebhookRequestOutcome,
  type ProcessingOutcome,
  type SourceLabel,
} from './metric-labels.js';

/** Acknowledgements: 1 ms to 10 s (Meta gives up after about 20 s). */
const ACK_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Steps mostly call other services: 5 ms to a minute. */
const STEP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** From the ack to the start of the first attempt: milliseconds when healthy, up to an hour in a backlog. */
const LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

/**
 * The service's Prometheus metrics, in a registry of its own (not prom-client's global one, so
 * several applications in one process do not clash). Recording is synchronous and in memory;
 * only the inbox gauges touch the database, once per scrape.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  private readonly webhookRequests = new Counter({
    name: 'wdd_webhook_deliveries_total',
    help: 'POST /webhook[/source] requests by source (from the URL, else the body; unknown: neither) and outcome (ok, invalid, signature_rejected, source_disabled, unavailable, error, aborted).',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly events = new Counter({
    name: 'wdd_events_total',
    help: 'Events of acknowledged webhook requests, by source, kind and result (accepted: new; duplicate: already claimed; stale: the time the source gives is older than RETENTION_DAYS, not stored).',
    labelNames: ['provider', 'kind', 'result'] as const,
    registers: [this.registry],
  });
  private readonly signatureRejections = new Counter({
    name: 'wdd_signature_rejections_total',
    help: 'Webhook requests refused with 401, by source and reason (missing, malformed, expired, mismatch).',
    labelNames: ['provider', 'reason'] as const,
    registers: [this.registry],
  });
  private readonly ackDuration = new Histogram({
    name: 'wdd_ack_duration_seconds',
    help: 'Time from a POST /webhook request to its answer, whatever the outcome.',
    labelNames: ['provider'] as const,
    buckets: ACK_BUCKETS,
    registers: [this.registry],
  });
  private readonly processingOutcomes = new Counter({
    name: 'wdd_processing_outcomes_total',
    help: 'Attempts at events by how they ended (error: the outcome could not be recorded; dead also counts events whose last lease expired).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly destinationOutcomes = new Counter({
    name: 'wdd_destination_outcomes_total',
    help: 'Attempts at deliveries to destinations (DESTINATIONS_FILE), by destination and how they ended.',
    labelNames: ['destination', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly destinationCircuit = new Gauge({
    name: 'wdd_destination_circuit_open',
    help: "1 while a destination's circuit is open (paused after consecutive failures, probed once per interval), 0 while closed; as last seen by this process's destination worker.",
    labelNames: ['destination'] as const,
    registers: [this.registry],
  });
  private readonly destinationPaused = new Gauge({
    name: 'wdd_destination_paused',
    help: '1 while nothing may be sent to a destination (an open circuit between probes, or a Retry-After), 0 otherwise; as last seen by this process.',
    labelNames: ['destination'] as const,
    registers: [this.registry],
  });
  private readonly stepDuration = new Histogram({
    name: 'wdd_step_duration_seconds',
    help: 'Duration of each run of a processing step, by step and outcome (ok, error).',
    labelNames: ['step', 'outcome'] as const,
    buckets: STEP_BUCKETS,
    registers: [this.registry],
  });
  private readonly workerLag = new Histogram({
    name: 'wdd_worker_lag_seconds',
    help: "Time from an event's received_at (database clock) to its first lease by a worker (process clock).",
    buckets: LAG_BUCKETS,
    registers: [this.registry],
  });
  private readonly claimsShed = new Counter({
    name: 'wdd_claims_shed_total',
    help: 'Webhook requests answered 503 at once because the claim queue in front of the database was full (events or bytes).',
    registers: [this.registry],
  });
  private readonly retentionPurges = new Counter({
    name: 'wdd_retention_purged_total',
    help: 'Rows the retention purge deleted, by table (messages: finished events, their steps not counted; deliveries: receipts).',
    labelNames: ['table'] as const,
    registers: [this.registry],
  });
  private readonly lastAccepted = new Gauge({
    name: 'wdd_last_accepted_event_timestamp_seconds',
    help: 'Unix time of the last event this process accepted (stored as new), by source; no series for a source without one since the process started. Alert on time() minus its max over the instances (deploy/prometheus/alerts.yml).',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });
  private readonly silenceAlertAfter = new Gauge({
    name: 'wdd_silence_alert_after_seconds',
    help: 'SILENCE_ALERT_AFTER_SECONDS for each enabled source (HTTP service only): how long a source that had traffic may send no new event before the silence alert fires; 0: never.',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });
  /** Destinations whose outcome series were created (at zero) on first sight. */
  private readonly destinationsSeen = new Set<string>();

  constructor(inbox: InboxStatsRepository) {
    collectDefaultMetrics({ register: this.registry });
    registerInboxGauges(this.registry, inbox);
    // Every bounded series exists from the start, so rate() and absent() see zeros, not gaps.
    for (const provider of SOURCE_OR_UNKNOWN_LABELS) {
      for (const outcome of WEBHOOK_REQUEST_OUTCOMES) this.webhookRequests.inc({ provider, outcome }, 0);
      if (provider === 'unknown') continue;
      for (const kind of EVENT_KINDS) for (const result of EVENT_RESULTS) this.events.inc({ provider, kind, result }, 0);
    }
    for (const provider of SOURCE_LABELS) for (const reason of SIGNATURE_FAILURES) this.signatureRejections.inc({ provider, reason }, 0);
    for (const outcome of PROCESSING_OUTCOMES) this.processingOutcomes.inc({ outcome }, 0);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text. Never rejects because of the database: the inbox gauges then keep their last values. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  /** One POST /webhook, answered (or abandoned) after `seconds`. */
  webhookRequest(source: SourceLabel, outcome: WebhookRequestOutcome, seconds: number): void {
    this.webhookRequests.inc({ provider: source, outcome });
    this.ackDuration.observe({ provider: source }, seconds);
  }

  /** What became of one webhook request's events (`results[i]` is the result of `events[i]`). */
  eventsClaimed(events: readonly NormalizedEvent[], results: readonly EventResultLabel[]): void {
    if (events.length === 1) {
      this.events.inc({ provider: events[0].source, kind: events[0].kind, result: results[0] });
      if (results[0] === 'accepted') this.lastAccepted.set({ provider: events[0].source }, Date.now() / 1000);
      return;
    }
    // A batch (Meta sends up to 1,000 updates) has only a few label sets: add them up first.
    const totals = new Map<string, { labels: { provider: string; kind: string; result: string }; count: number }>();
    events.forEach(({ source: provider, kind }, i) => {
      const result = results[i];
      const id = `${provider}/${kind}/${result}`;
      const total = totals.get(id);
      if (total) total.count++;
      else totals.set(id, { labels: { provider, kind, result }, count: 1 });
    });
    const now = Date.now() / 1000;
    for (const { labels, count } of totals.values()) {
      this.events.inc(labels, count);
      if (labels.result === 'accepted') this.lastAccepted.set({ provider: labels.provider }, now);
    }
  }

  /**
   * The silence alert's threshold for each enabled source (SILENCE_ALERT_AFTER_SECONDS), set
   * once at boot by the HTTP service, the process that accepts events; 0 turns the alert off.
   */
  silenceAlertThreshold(sources: readonly SourceName[], seconds: number): void {
    this.silenceAlertAfter.reset();
    for (const provider of sources) this.silenceAlertAfter.set({ provider }, seconds);
  }

  /** A webhook request refused because the claim queue was full. */
  claimShed(): void {
    this.claimsShed.inc();
  }

  signatureRejected(provider: SourceName, reason: (typeof SIGNATURE_FAILURES)[number]): void {
    this.signatureRejections.inc({ provider, reason });
  }

  /** How one attempt ended; the worker's `lease-lost` is spelled `lease_lost`. */
  processingOutcome(outcome: ProcessingOutcome | 'lease-lost', count = 1): void {
    if (count > 0) this.processingOutcomes.inc({ outcome: outcome === 'lease-lost' ? 'lease_lost' : outcome }, count);
  }

  /** How one attempt at a delivery ended; `destination` is a configured name (a bounded set). */
  destinationOutcome(destination: string, outcome: ProcessingOutcome | 'lease-lost', count = 1): void {
    this.seeDestination(destination);
    if (count > 0) this.destinationOutcomes.inc({ destination, outcome: outcome === 'lease-lost' ? 'lease_lost' : outcome }, count);
  }

  /** A destination's gate as the destination worker last read it (names: a bounded, configured set). */
  destinationGate(destination: string, open: boolean, paused: boolean): void {
    this.seeDestination(destination);
    this.destinationCircuit.set({ destination }, open ? 1 : 0);
    this.destinationPaused.set({ destination }, paused ? 1 : 0);
  }

  /**
   * A destination's outcome series start at zero the first time it is seen (its gate is read on
   * every lease), so that increase() counts its first dead delivery: a series that appears at 1
   * would not be.
   */
  private seeDestination(destination: string): void {
    if (this.destinationsSeen.has(destination)) return;
    this.destinationsSeen.add(destination);
    for (const outcome of PROCESSING_OUTCOMES) this.destinationOutcomes.inc({ destination, outcome }, 0);
  }

  /** Runs one step, recording its duration and whether it returned or threw. */
  timeStep<T>(step: string, run: () => Promise<T>): Promise<T> {
    const end = this.stepDuration.startTimer({ step });
    return run().then(
      (value) => {
        end({ outcome: 'ok' });
        return value;
      },
      (error: unknown) => {
        end({ outcome: 'error' });
        throw error;
      },
    );
  }

  /**
   * An event was leased. Only first attempts count: a retry's wait is its backoff, not lag.
   * received_at comes from the database's clock and "now" from this process's: fine on one
   * host or with NTP; skew between hosts shows up as lag (negative lags count as 0).
   */
  eventLeased(receivedAt: Date, attempt: number): void {
    if (attempt === 1) this.workerLag.observe(Math.max(0, Date.now() - receivedAt.getTime()) / 1000);
  }

  /** Rows one retention batch deleted from `table`; a count of 0 only makes the series exist. */
  retentionPurged(table: 'messages' | 'deliveries', count: number): void {
    this.retentionPurges.inc({ table }, count);
  }
}
