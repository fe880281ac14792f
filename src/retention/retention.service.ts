import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { RetentionRepository } from './retention.repository.js';

export const RETENTION_TABLES = ['messages', 'deliveries'] as const;
export type RetentionTable = (typeof RETENTION_TABLES)[number];

/** What one run deleted (rows per table; steps that went with their events are not counted) and how long it took. */
export interface RetentionRun {
  events: number;
  deliveries: number;
  ms: number;
}

/** Between two batches: other statements get the connections and the pages the purge touches. */
export const BATCH_PAUSE_MS = 10;

/** The first run: 10 s after start, plus up to a minute (at most one interval) of jitter. */
export function firstRunDelayMs(intervalMs: number, random = Math.random()): number {
  return 10_000 + Math.floor(random * Math.min(60_000, intervalMs));
}

/** Every later run: the interval ±10 %, so instances started together drift apart. */
export function nextRunDelayMs(intervalMs: number, random = Math.random()): number {
  return Math.round(intervalMs * (0.9 + 0.2 * random));
}

/**
 * Keeps the inbox from growing forever: purges finished events and delivery records older
 * than RETENTION_DAYS, every RETENTION_INTERVAL_MINUTES, in batches of RETENTION_BATCH_SIZE
 * (each its own short statement). Every process runs it (the HTTP service and standalone
 * workers alike): the batches of concurrent runs are disjoint (see RetentionRepository), so
 * running it several times at once only splits the work.
 *
 * A run never overlaps another in the same process, goes on until a batch comes back short,
 * and ends early on shutdown; a failed run (the database is down?) is logged and the next
 * interval tries again.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private timer: NodeJS.Timeout | null = null;
  private scheduled = false;
  private stopping = false;
  private current: Promise<RetentionRun> | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly repository: RetentionRepository,
    private readonly metrics: MetricsService,
  ) {
    for (const table of RETENTION_TABLES) metrics.retentionPurged(table, 0); // the series exist from the start
  }

  onApplicationBootstrap(): void {
    if (this.config.RETENTION_ENABLED) this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  private get intervalMs(): number {
    return this.config.RETENTION_INTERVAL_MINUTES * 60_000;
  }

  /** Schedules the periodic purge (the first run comes 10–70 s from now). */
  start(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.stopping = false;
    this.schedule(firstRunDelayMs(this.intervalMs));
    this.logger.log(
      `retention: processed and dead events and delivery records older than ${this.config.RETENTION_DAYS} days ` +
        `are purged every ${this.config.RETENTION_INTERVAL_MINUTES} min`,
    );
  }

  /** No further runs; a run in progress stops after its current batch, which this awaits. */
  async stop(): Promise<void> {
    this.scheduled = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stopping = true;
    try {
      await this.current?.catch(() => undefined);
    } finally {
      this.stopping = false;
    }
  }

  /**
   * Purges everything that is due now, batch after batch. A call while a run is in progress
   * returns that run. Rejects when a batch fails (after logging it); what earlier batches
   * deleted stays deleted and counted.
   */
  runOnce(): Promise<RetentionRun> {
    this.current ??= this.purge().finally(() => {
      this.current = null;
    });
    return this.current;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    await this.runOnce().catch(() => undefined); // logged by purge(); the next interval tries again
    if (this.scheduled) this.schedule(nextRunDelayMs(this.intervalMs));
  }

  private async purge(): Promise<RetentionRun> {
    const days = this.config.RETENTION_DAYS;
    const started = performance.now();
    const purged: Record<RetentionTable, number> = { messages: 0, deliveries: 0 };
    const summary = () => `${purged.messages} events and ${purged.deliveries} delivery records older than ${days} days`;
    try {
      await this.drain('messages', (limit) => this.repository.purgeFinishedEvents(days, limit), purged);
      if (!this.stopping) await this.drain('deliveries', (limit) => this.repository.purgeDeliveryRecords(days, limit), purged);
    } catch (error) {
      this.logger.warn(`retention: purge failed (${(error as Error).message}) after purging ${summary()}; the next run tries again`);
      throw error;
    }
    const ms = Math.round(performance.now() - started);
    const line = `retention: purged ${summary()} in ${ms} ms${this.stopping ? ' (cut short by shutdown)' : ''}`;
    if (purged.messages + purged.deliveries > 0) this.logger.log(line);
    else this.logger.debug(line);
    return { events: purged.messages, deliveries: purged.deliveries, ms };
  }

  /** Batches until one comes back short (nothing more is due, or only rows others hold) or shutdown begins. */
  private async drain(table: RetentionTable, purgeBatch: (limit: number) => Promise<number>, purged: Record<RetentionTable, number>) {
    const limit = this.config.RETENTION_BATCH_SIZE;
    for (;;) {
      const count = await purgeBatch(limit);
      purged[table] += count;
      this.metrics.retentionPurged(table, count);
      if (count < limit || this.stopping) return;
      await new Promise((resolve) => setTimeout(resolve, BATCH_PAUSE_MS));
    }
  }
}
