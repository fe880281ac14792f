import { jest } from '@jest/globals';
import { validateConfig } from '../../test/support/settings.js';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import type { InboxStatsRepository } from './inbox-stats.repository.js';
import { MetricsService } from './metrics.service.js';
import { SilenceAlertThreshold } from './silence-alert-threshold.js';

const event = (source: NormalizedEvent['source'], kind: NormalizedEvent['kind'] = 'message'): NormalizedEvent => ({
  key: `${source}:${kind}:${Math.random()}`, source, kind, type: 'text', sender: null, userId: null, tenant: null, providerTimestamp: null, fromMe: false, authenticated: false, raw: {},
});

const newMetrics = () => new MetricsService({ read: async () => ({ counts: { received: 0, processing: 0, failed: 0, dead: 0 }, oldestUnprocessedSeconds: 0 }) } as unknown as InboxStatsRepository);

/** Every sample of one metric, as `labels → value`. */
async function samples(metrics: MetricsService, name: string): Promise<Record<string, number>> {
  const found = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (found?.values ?? []) as Array<{ value: number; labels: Record<string, string | number> }>;
  return Object.fromEntries(values.map((v) => [Object.entries(v.labels).map(([k, l]) => `${k}=${l}`).join(','), v.value]));
}

afterEach(() => jest.useRealTimers());

describe('wdd_last_accepted_event_timestamp_seconds', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-12-01T10:00:00Z'), doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask', 'performance', 'hrtime'] }));

  it('has no series for a source before it has an accepted event (the silence alert needs "used to have traffic")', async () => {
    const metrics = newMetrics();
    expect(await samples(metrics, 'wdd_last_accepted_event_timestamp_seconds')).toEqual({});
    expect(await metrics.scrape()).toContain('# TYPE wdd_last_accepted_event_timestamp_seconds gauge');
  });

  it('is set to the time of the last accepted event per source; duplicates and stale events leave it alone', async () => {
    const metrics = newMetrics();
    metrics.eventsClaimed([event('meta')], ['accepted']);
    jest.setSystemTime(new Date('2026-12-01T10:00:30Z'));
    metrics.eventsClaimed([event('meta')], ['duplicate']);
    metrics.eventsClaimed([event('wasender')], ['stale']);
    expect(await samples(metrics, 'wdd_last_accepted_event_timestamp_seconds')).toEqual({
      'provider=meta': Date.parse('2026-12-01T10:00:00Z') / 1000,
    });

    jest.setSystemTime(new Date('2026-12-01T10:01:00Z'));
    const batch = [event('waha'), event('waha', 'status'), event('waha')];
    metrics.eventsClaimed(batch, ['duplicate', 'accepted', 'duplicate']);
    metrics.eventsClaimed([event('generic'), event('generic')], ['duplicate', 'stale']);
    expect(await samples(metrics, 'wdd_last_accepted_event_timestamp_seconds')).toEqual({
      'provider=meta': Date.parse('2026-12-01T10:00:00Z') / 1000,
      'provider=waha': Date.parse('2026-12-01T10:01:00Z') / 1000,
    });
  });
});

describe('wdd_silence_alert_after_seconds', () => {
  const config = (env: Record<string, string>) => validateConfig({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/db', ...env });

  it('exports SILENCE_ALERT_AFTER_SECONDS for each enabled source, once', async () => {
    const metrics = newMetrics();
    const settings = config({ WEBHOOK_PROVIDERS: 'meta,twilio,meta', SILENCE_ALERT_AFTER_SECONDS: '900' });
    new SilenceAlertThreshold(settings, settings, metrics).onModuleInit();
    expect(await samples(metrics, 'wdd_silence_alert_after_seconds')).toEqual({ 'provider=meta': 900, 'provider=twilio': 900 });
  });

  it('defaults to an hour for the default sources, and exports 0 (never) when turned off', async () => {
    const metrics = newMetrics();
    new SilenceAlertThreshold(config({}), config({}), metrics).onModuleInit();
    expect(await samples(metrics, 'wdd_silence_alert_after_seconds')).toEqual({ 'provider=meta': 3600, 'provider=wasender': 3600, 'provider=generic': 3600 });
    metrics.silenceAlertThreshold(['meta'], 0);
    expect(await samples(metrics, 'wdd_silence_alert_after_seconds')).toEqual({ 'provider=meta': 0 });
  });

  it('is not exported by a process that does not accept events (no threshold set)', async () => {
    expect(await samples(newMetrics(), 'wdd_silence_alert_after_seconds')).toEqual({});
  });
});

describe('wdd_destination_outcomes_total', () => {
  it("starts a destination's outcome series at zero when it is first seen, so its first dead delivery is an increase", async () => {
    const metrics = newMetrics();
    metrics.destinationGate('crm', false, false);
    const zeros = await samples(metrics, 'wdd_destination_outcomes_total');
    expect(zeros['destination=crm,outcome=dead']).toBe(0);
    expect(Object.values(zeros)).toEqual([0, 0, 0, 0, 0, 0]);
    metrics.destinationOutcome('bot', 'dead');
    metrics.destinationOutcome('crm', 'lease-lost', 2);
    const after = await samples(metrics, 'wdd_destination_outcomes_total');
    expect(after['destination=bot,outcome=dead']).toBe(1);
    expect(after['destination=bot,outcome=processed']).toBe(0);
    expect(after['destination=crm,outcome=lease_lost']).toBe(2);
  });
});
