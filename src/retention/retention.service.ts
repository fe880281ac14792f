import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { RetentionSettings } from './retention.settings.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { RetentionRepository, type FinishedStatus } from './retention.repository.js';

export const RETENTION_TABLES = ['messages', 'deliveries'] as const;
export type RetentionTable = (typeof RETENTION_TABLES)[number];

/** What one run deleted (steps that went with their events are not counted) and how long it took. */
export interface RetentionRun {
  /** Events of either finished status; `deadEvents` of them were dead. */
  events: number;
  deadEvents: number;
  receipts: number;
  ms: number;
}

/** What a run deletes, in order: each kind has its own statement and its own age. */
type Purged = Record<FinishedStatus | 'receipts', number>;
const TABLE_OF: Record<keyof Purged, RetentionTable> = { processed: 'messages', dead: 'messages', receipts: 'deliveries' };

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
 * Keeps the inbox from growing forever: purges processed events and receipts older
 * than RETENTION_DAYS, and dead events older than DEAD_RETENTION_DAYS (kept longer, so that
 * they can still be replayed), every RETENTION_INTERVAL_MINUTES, in batches of
 * RETENTION_BATCH_SIZE (each its own short statement). Every process runs it (the HTTP service
 * and standalone workers alike): the batches of concurrent runs are disjoint (see
 * RetentionRepository), so running it several times at once only splits the work.
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
    private readonly config: RetentionSettings,
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
      `retention: processed events and receipts older than ${this.config.RETENTION_DAYS} days, and dead events ` +
        `older than ${this.config.DEAD_RETENTION_DAYS} days, are purged every ${this.config.RETENTION_INTERVAL_MINUTES} min`,
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
    const { RETENTION_DAYS: days, DEAD_RETENTION_DAYS: deadDays } = this.config;
    const started = performance.now();
    const purged: Purged = { processed: 0, dead: 0, receipts: 0 };
    const summary = () =>
      `${purged.processed} processed events and ${purged.receipts} receipts older than ${days} days ` +
      `and ${purged.dead} dead events older than ${deadDays} days`;
    try {
      await this.drain('processed', (limit) => this.repository.purgeFinishedEvents('processed', days, limit, deadDays), purged);
      await this.drain('dead', (limit) => this.repository.purgeFinishedEvents('dead', deadDays, limit), purged);
      await this.drain('receipts', (limit) => this.repository.purgeReceipts(days, limit), purged);
    } catch (error) {
      this.logger.warn(`retention: purge failed (${(error as Error).message}) after purging ${summary()}; the next run tries again`);
      throw error;
    }
    const ms = Math.round(performance.now() - started);
    const line = `retention: purged ${summary()} in ${ms} ms${this.stopping ? ' (cut short by shutdown)' : ''}`;
    if (purged.processed + purged.dead + purged.receipts > 0) this.logger.log(line);
    else this.logger.debug(line);
    return { events: purged.processed + purged.dead, deadEvents: purged.dead, receipts: purged.receipts, ms };
  }

  /**
   * Batches until one comes back short (nothing more is due, or only rows others hold) or
   * shutdown begins; once it has begun, later kinds do not start.
   */
  private async drain(kind: keyof Purged, purgeBatch: (limit: number) => Promise<number>, purged: Purged) {
    const limit = this.config.RETENTION_BATCH_SIZE;
    while (!this.stopping) {
      const count = await purgeBatch(limit);
      purged[kind] += count;
      this.metrics.retentionPurged(TABLE_OF[kind], count);
      if (count < limit) return;
      if (!this.stopping) await new Promise((resolve) => setTimeout(resolve, BATCH_PAUSE_MS));
    }
  }
}
