import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { validateConfig } from '../../test/support/settings.js';
import type { InboxStatsRepository } from '../metrics/inbox-stats.repository.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { RetentionRepository } from './retention.repository.js';
import { firstRunDelayMs, nextRunDelayMs, RetentionService } from './retention.service.js';

/** The scheduling and batching around the SQL (the SQL itself: test/retention.e2e-spec.ts). */
const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/db';
const MINUTE = 60_000;

function setUp(env: Record<string, string> = {}) {
  const config = validateConfig({ DATABASE_URL, RETENTION_BATCH_SIZE: '10', RETENTION_INTERVAL_MINUTES: '60', ...env });
  const events: number[] = [];
  const dead: number[] = [];
  const deliveries: number[] = [];
  const repository = {
    purgeFinishedEvents: jest.fn(async (status: string, _days: number, _limit: number, _deadDays?: number) => (status === 'dead' ? dead : events).shift() ?? 0),
    purgeReceipts: jest.fn(async (_days: number, _limit: number) => deliveries.shift() ?? 0),
  };
  const metrics = new MetricsService({ read: async () => ({ counts: {}, oldestUnprocessedSeconds: 0 }) } as unknown as InboxStatsRepository);
  const service = new RetentionService(config, repository as unknown as RetentionRepository, metrics);
  const purged = async (table: string) =>
    ((await metrics.registry.getSingleMetric('wdd_retention_purged_total')!.get()).values.find((v) => v.labels.table === table))?.value;
  return { service, repository, metrics, events, dead, deliveries, purged };
}

const logs = () => ({
  log: jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined),
  debug: jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined),
  warn: jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined),
});

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('the run delays', () => {
  it('start 10–70 s after start (never beyond one interval) and then keep the interval ±10 %', () => {
    expect([firstRunDelayMs(60 * MINUTE, 0), firstRunDelayMs(60 * MINUTE, 0.999999)]).toEqual([10_000, 69_999]);
    expect(firstRunDelayMs(MINUTE / 2, 0.5)).toBe(25_000);
    expect([nextRunDelayMs(60 * MINUTE, 0), nextRunDelayMs(60 * MINUTE, 0.5), nextRunDelayMs(60 * MINUTE, 1)]).toEqual([
      54 * MINUTE, 60 * MINUTE, 66 * MINUTE,
    ]);
  });
});

describe('RetentionService', () => {
  it('makes both metric series exist from the start', async () => {
    const { purged } = setUp();
    expect([await purged('messages'), await purged('deliveries')]).toEqual([0, 0]);
  });

  it('deletes batch after batch until one comes back short: processed events, dead events, then receipts', async () => {
    const { service, repository, events, dead, deliveries, purged } = setUp({ RETENTION_DAYS: '9', DEAD_RETENTION_DAYS: '40' });
    const { log } = logs();
    events.push(10, 10, 3);
    dead.push(10, 2);
    deliveries.push(10, 0);
    const run = await service.runOnce();
    expect(run).toMatchObject({ events: 35, deadEvents: 12, receipts: 10 });
    expect(repository.purgeFinishedEvents.mock.calls).toEqual([
      ['processed', 9, 10, 40], ['processed', 9, 10, 40], ['processed', 9, 10, 40], ['dead', 40, 10], ['dead', 40, 10],
    ]);
    expect(repository.purgeReceipts.mock.calls).toEqual([[9, 10], [9, 10]]);
    expect([await purged('messages'), await purged('deliveries')]).toEqual([35, 10]);
    expect(log.mock.calls).toEqual([[expect.stringMatching(
      /^retention: purged 23 processed events and 10 receipts older than 9 days and 12 dead events older than 40 days in \d+ ms$/,
    )]]);
  });

  it('keeps dead events 30 days by default, or RETENTION_DAYS when that is longer', async () => {
    for (const [env, deadDays] of [[{}, 30], [{ RETENTION_DAYS: '45' }, 45], [{ RETENTION_DAYS: '10', DEAD_RETENTION_DAYS: '10' }, 10]] as const) {
      const { service, repository } = setUp(env);
      logs();
      await service.runOnce();
      expect(repository.purgeFinishedEvents.mock.calls.find(([status]) => status === 'dead')?.[1]).toBe(deadDays);
    }
  });

  it('logs a run that found nothing at debug level only', async () => {
    const { service } = setUp();
    const { log, debug } = logs();
    expect(await service.runOnce()).toMatchObject({ events: 0, receipts: 0 });
    expect(log).not.toHaveBeenCalled();
    expect(debug.mock.calls).toEqual([[expect.stringMatching(
      /^retention: purged 0 processed events and 0 receipts older than 8 days and 0 dead events older than 30 days in \d+ ms$/,
    )]]);
  });

  it('runs 10–70 s after start, then every interval, until stopped', async () => {
    jest.useFakeTimers();
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const { service, repository } = setUp();
    const { log } = logs();
    service.onApplicationBootstrap();
    expect(log.mock.calls).toEqual([
      ['retention: processed events and receipts older than 8 days, and dead events older than 30 days, are purged every 60 min'],
    ]);
    await jest.advanceTimersByTimeAsync(39_999);
    expect(repository.purgeReceipts).toHaveBeenCalledTimes(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(repository.purgeReceipts).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(60 * MINUTE - 1);
    expect(repository.purgeReceipts).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(repository.purgeReceipts).toHaveBeenCalledTimes(2);
    await service.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(10 * 60 * MINUTE);
    expect(repository.purgeReceipts).toHaveBeenCalledTimes(2);
    expect(repository.purgeFinishedEvents).toHaveBeenCalledTimes(4); // processed and dead, per run
    expect(jest.getTimerCount()).toBe(0);
  });

  it('schedules nothing when RETENTION_ENABLED=false', async () => {
    jest.useFakeTimers();
    const { service, repository } = setUp({ RETENTION_ENABLED: 'false' });
    service.onApplicationBootstrap();
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(10 * 60 * MINUTE);
    expect(repository.purgeFinishedEvents).not.toHaveBeenCalled();
  });

  it('survives a failed run: warns with what was purged before, and tries again at the next interval', async () => {
    jest.useFakeTimers();
    jest.spyOn(Math, 'random').mockReturnValue(0);
    const { service, repository, events, purged } = setUp();
    const { log, warn } = logs();
    events.push(10, 4);
    repository.purgeFinishedEvents
      .mockResolvedValueOnce(10)
      .mockRejectedValueOnce(new Error('canceling statement due to statement timeout'));
    service.start();
    await jest.advanceTimersByTimeAsync(10_000 + 10); // first run, its pause between batches
    expect(warn.mock.calls).toEqual([[
      'retention: purge failed (canceling statement due to statement timeout) after purging 10 processed events and 0 receipts ' +
        'older than 8 days and 0 dead events older than 30 days; the next run tries again',
    ]]);
    expect(await purged('messages')).toBe(10);
    await jest.advanceTimersByTimeAsync(54 * MINUTE + 10); // interval -10 % (Math.random() = 0), and a pause
    // 10, error; then the next run: 10, 4, and the dead ones.
    expect(repository.purgeFinishedEvents.mock.calls.map(([status]) => status)).toEqual(['processed', 'processed', 'processed', 'processed', 'dead']);
    expect(await purged('messages')).toBe(24);
    expect(log).toHaveBeenLastCalledWith(expect.stringMatching(/^retention: purged 14 processed events and 0 receipts/));
    await service.stop();
  });

  it('never overlaps itself: a run asked for while one is in progress is that run', async () => {
    jest.useFakeTimers();
    jest.spyOn(Math, 'random').mockReturnValue(0);
    const { service, repository } = setUp();
    logs();
    let finish!: (n: number) => void;
    repository.purgeFinishedEvents.mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    const manual = service.runOnce();
    expect(service.runOnce()).toBe(manual);
    service.start();
    await jest.advanceTimersByTimeAsync(10_000); // the scheduled run comes while the manual one waits
    expect(repository.purgeFinishedEvents).toHaveBeenCalledTimes(1);
    finish(3);
    expect(await manual).toMatchObject({ events: 3 });
    expect(repository.purgeFinishedEvents.mock.calls.map(([status]) => status)).toEqual(['processed', 'dead']); // one run only
    await service.stop();
  });

  it('stops after the batch in progress on shutdown, and awaits it', async () => {
    const { service, repository } = setUp();
    const { log } = logs();
    let finish!: (n: number) => void;
    repository.purgeFinishedEvents.mockResolvedValueOnce(10).mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    repository.purgeFinishedEvents.mockResolvedValue(10); // always more: only the shutdown ends the run
    const run = service.runOnce();
    while (repository.purgeFinishedEvents.mock.calls.length < 2) await new Promise((r) => setTimeout(r, 5));
    let stopped = false;
    const stopping = service.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(stopped).toBe(false); // waits for the batch in flight
    finish(10);
    await stopping;
    expect(await run).toMatchObject({ events: 20, deadEvents: 0 });
    expect(repository.purgeFinishedEvents.mock.calls.map(([status]) => status)).toEqual(['processed', 'processed']); // not the dead ones
    expect(repository.purgeReceipts).not.toHaveBeenCalled();
    expect(log.mock.calls).toEqual([[expect.stringMatching(
      /^retention: purged 20 processed events and 0 receipts older than 8 days and 0 dead events older than 30 days in \d+ ms \(cut short by shutdown\)$/,
    )]]);
  });
});
