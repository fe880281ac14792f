import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import type { InboxStats } from './inbox-stats.js';
import type { InboxStatsRepository } from './inbox-stats.repository.js';
import { MetricsService } from './metrics.service.js';

const event = (source: NormalizedEvent['source'], kind: NormalizedEvent['kind']): NormalizedEvent => ({
  key: `${source}:${kind}:${Math.random()}`, source, kind, type: 'text', sender: null, userId: null, tenant: null, providerTimestamp: null, fromMe: false, authenticated: false, raw: {},
});
const stats = (dead: number, oldest = 0): InboxStats => ({ counts: { received: 1, processing: 0, failed: 0, dead }, oldestUnprocessedSeconds: oldest });

/** The service over a stand-in repository (the SQL itself is covered by test/metrics.e2e-spec.ts). */
function serviceWith(read: () => Promise<InboxStats>) {
  const repository = { read: jest.fn(read) };
  return { metrics: new MetricsService(repository as unknown as InboxStatsRepository), repository };
}

/** One sample's value from the registry (undefined when the series does not exist). */
async function valueOf(metrics: MetricsService, sample: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const family = sample.replace(/_(bucket|sum|count)$/, '');
  const all = await metrics.registry.getMetricsAsJSON();
  const found = all.find((m) => m.name === family || m.name === sample);
  const values = (found?.values ?? []) as Array<{ value: number; labels: Record<string, string | number>; metricName?: string }>;
  const match = values.find(
    (v) => (v.metricName ?? found!.name) === sample && Object.entries(labels).every(([k, l]) => String(v.labels[k]) === l) &&
      Object.keys(v.labels).length === Object.keys(labels).length,
  );
  return match?.value;
}

afterEach(() => jest.restoreAllMocks());

describe('MetricsService', () => {
  it('keeps its own registry: two instances do not clash and the global registry stays empty', async () => {
    const a = serviceWith(async () => stats(0)).metrics;
    const b = serviceWith(async () => stats(0)).metrics;
    a.signatureRejected('meta', 'mismatch');
    expect(await valueOf(a, 'wdd_signature_rejections_total', { provider: 'meta', reason: 'mismatch' })).toBe(1);
    expect(await valueOf(b, 'wdd_signature_rejections_total', { provider: 'meta', reason: 'mismatch' })).toBe(0);
    const { register } = await import('prom-client');
    expect(register.getSingleMetric('wdd_events_total')).toBeUndefined();
  });

  it('starts every bounded series at zero', async () => {
    const { metrics } = serviceWith(async () => stats(0));
    expect(await valueOf(metrics, 'wdd_webhook_deliveries_total', { provider: 'unknown', outcome: 'invalid' })).toBe(0);
    expect(await valueOf(metrics, 'wdd_events_total', { provider: 'wasender', kind: 'status', result: 'duplicate' })).toBe(0);
    expect(await valueOf(metrics, 'wdd_processing_outcomes_total', { outcome: 'lease_lost' })).toBe(0);
    expect(await valueOf(metrics, 'wdd_webhook_deliveries_total', { provider: 'generic', outcome: 'source_disabled' })).toBe(0);
    expect(await valueOf(metrics, 'wdd_events_total', { provider: 'meta', kind: 'status', result: 'stale' })).toBe(0);
    expect(await valueOf(metrics, 'wdd_signature_rejections_total', { provider: 'generic', reason: 'expired' })).toBe(0);
    expect(await valueOf(metrics, 'wdd_events_total', { provider: 'unknown', kind: 'message', result: 'accepted' })).toBeUndefined();
  });

  it('counts a webhook request and observes its ack time under its source', async () => {
    const { metrics } = serviceWith(async () => stats(0));
    metrics.webhookRequest('meta', 'ok', 0.003);
    metrics.webhookRequest('meta', 'unavailable', 0.2);
    expect(await valueOf(metrics, 'wdd_webhook_deliveries_total', { provider: 'meta', outcome: 'ok' })).toBe(1);
    expect(await valueOf(metrics, 'wdd_webhook_deliveries_total', { provider: 'meta', outcome: 'unavailable' })).toBe(1);
    expect(await valueOf(metrics, 'wdd_ack_duration_seconds_count', { provider: 'meta' })).toBe(2);
    expect(await valueOf(metrics, 'wdd_ack_duration_seconds_sum', { provider: 'meta' })).toBeCloseTo(0.203);
    expect(await valueOf(metrics, 'wdd_ack_duration_seconds_bucket', { provider: 'meta', le: '0.005' })).toBe(1);
    expect(await valueOf(metrics, 'wdd_ack_duration_seconds_bucket', { provider: 'meta', le: '0.25' })).toBe(2);
  });

  it('counts claimed events by provider, kind and verdict, single events and batches alike', async () => {
    const { metrics } = serviceWith(async () => stats(0));
    const batch = [event('meta', 'message'), event('meta', 'message'), event('meta', 'status'), event('meta', 'message')];
    metrics.eventsClaimed(batch, batch.map((_, i) => (i === 3 ? 'duplicate' : 'accepted')));
    const single = event('wasender', 'other');
    metrics.eventsClaimed([single], ['duplicate']);
    metrics.eventsClaimed([], []);
    expect(await valueOf(metrics, 'wdd_events_total', { provider: 'meta', kind: 'message', result: 'accepted' })).toBe(2);
    expect(await valueOf(metrics, 'wdd_events_total', { provider: 'meta', kind: 'message', result: 'duplicate' })).toBe(1);
    expect(await valueOf(metrics, 'wdd_events_total', { provider: 'meta', kind: 'status', result: 'accepted' })).toBe(1);
    expect(await valueOf(metrics, 'wdd_events_total', { provider: 'wasender', kind: 'other', result: 'duplicate' })).toBe(1);
  });

  it("spells the worker's lease-lost as lease_lost and ignores a count of zero", async () => {
    const { metrics } = serviceWith(async () => stats(0));
    metrics.processingOutcome('lease-lost');
    metrics.processingOutcome('dead', 2);
    metrics.processingOutcome('dead', 0);
    expect(await valueOf(metrics, 'wdd_processing_outcomes_total', { outcome: 'lease_lost' })).toBe(1);
    expect(await valueOf(metrics, 'wdd_processing_outcomes_total', { outcome: 'dead' })).toBe(2);
    expect(await valueOf(metrics, 'wdd_processing_outcomes_total', { outcome: 'lease-lost' })).toBeUndefined();
  });

  it('times steps by outcome and passes their value or error through', async () => {
    const { metrics } = serviceWith(async () => stats(0));
    await expect(metrics.timeStep('forward', async () => 42)).resolves.toBe(42);
    const failure = new Error('downstream is down');
    await expect(metrics.timeStep('forward', () => Promise.reject(failure))).rejects.toBe(failure);
    expect(await valueOf(metrics, 'wdd_step_duration_seconds_count', { step: 'forward', outcome: 'ok' })).toBe(1);
    expect(await valueOf(metrics, 'wdd_step_duration_seconds_count', { step: 'forward', outcome: 'error' })).toBe(1);
  });

  it('observes worker lag on first attempts only, never below zero', async () => {
    const { metrics } = serviceWith(async () => stats(0));
    metrics.eventLeased(new Date(Date.now() - 2000), 1);
    metrics.eventLeased(new Date(Date.now() - 600_000), 2); // a retry: its wait was backoff
    metrics.eventLeased(new Date(Date.now() + 5000), 1); // the database clock ahead of ours
    expect(await valueOf(metrics, 'wdd_worker_lag_seconds_count')).toBe(2);
    const sum = (await valueOf(metrics, 'wdd_worker_lag_seconds_sum'))!;
    expect(sum).toBeGreaterThanOrEqual(2);
    expect(sum).toBeLessThan(3);
  });

  describe('the inbox gauges', () => {
    it('are read at scrape time with one query for both gauges', async () => {
      const { metrics, repository } = serviceWith(async () => stats(4, 12.5));
      expect(repository.read).not.toHaveBeenCalled();
      const text = await metrics.scrape();
      expect(repository.read).toHaveBeenCalledTimes(1);
      expect(text).toContain('wdd_inbox_events{status="dead"} 4\n');
      expect(text).toContain('wdd_inbox_events{status="received"} 1\n');
      expect(text).toContain('wdd_inbox_oldest_unprocessed_seconds 12.5\n');
    });

    it('share one query between concurrent scrapes', async () => {
      let answer!: (s: InboxStats) => void;
      const { metrics, repository } = serviceWith(() => new Promise((resolve) => (answer = resolve)));
      const scrapes = [metrics.scrape(), metrics.scrape()];
      answer(stats(3));
      for (const text of await Promise.all(scrapes)) expect(text).toContain('wdd_inbox_events{status="dead"} 3\n');
      expect(repository.read).toHaveBeenCalledTimes(1);
    });

    it('keep their last values, with a warning, when the query fails; the scrape still answers', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      let fail = false;
      const { metrics } = serviceWith(async () => {
        if (fail) throw new Error('connection refused');
        return stats(2, 30);
      });
      await metrics.scrape();
      fail = true;
      const text = await metrics.scrape();
      expect(text).toContain('wdd_inbox_events{status="dead"} 2\n');
      expect(text).toContain('wdd_inbox_oldest_unprocessed_seconds 30\n');
      expect(text).toContain('wdd_events_total');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][0]).toMatch(/inbox metrics not updated: connection refused/);
    });

    it('have no samples when the first query already fails', async () => {
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      const { metrics } = serviceWith(async () => Promise.reject(new Error('down')));
      const text = await metrics.scrape();
      expect(text).toContain('# TYPE wdd_inbox_events gauge');
      expect(text).not.toMatch(/^wdd_inbox_events\{/m);
    });

    it('do not hold the scrape longer than 2 s when the database does not answer', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask', 'performance', 'hrtime', 'Date'] });
      try {
        const { metrics, repository } = serviceWith(() => new Promise(() => undefined));
        const scrape = metrics.scrape();
        await jest.advanceTimersByTimeAsync(2000);
        expect(await scrape).toContain('# TYPE wdd_inbox_oldest_unprocessed_seconds gauge');
        expect(warn).toHaveBeenCalledTimes(1);
        expect(warn.mock.calls[0][0]).toMatch(/longer than 2000 ms/);
        // The next scrape waits for the same query instead of stacking another one.
        const next = metrics.scrape();
        await jest.advanceTimersByTimeAsync(2000);
        await next;
        expect(repository.read).toHaveBeenCalledTimes(1);
      } finally {
        jest.useRealTimers();
      }
    });
  });
});
