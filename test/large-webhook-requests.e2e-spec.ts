import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { postWebhook, type WebhookAnswer } from './support/test-app.js';
import { createTestDatabase, EMBEDDED, type TestDatabase } from './support/test-database.js';

const KEY = 'evolution-large-requests-key';
const ENV = { WEBHOOK_PROVIDERS: 'evolution', EVOLUTION_API_KEY: KEY };

/** An Evolution messages.set of `count` small items (about 25 bytes each), as a history sync sends. */
function history(instance: string, count: number, prefix = 'H'): string {
  const items = Array.from({ length: count }, (_, n) => `{"key":{"id":"${prefix}${n}"}}`);
  return `{"event":"messages.set","instance":"${instance}","apikey":"${KEY}","data":[${items.join(',')}]}`;
}

/** Resident and peak resident memory of a process, in MiB (Linux). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)![1]);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** 100 chunks on PostgreSQL; 10 on the embedded database, which stores about four times slower. */
const LARGE = EMBEDDED ? 10_000 : 100_000;

describe('a webhook request of many events', () => {
  let db: TestDatabase;
  let service: ServiceProcess;
  const stored = async (instance: string) => (await db.query('SELECT count(*)::int AS n FROM messages WHERE tenant = $1', [instance]))[0].n;
  const post = (body: string) => postWebhook<WebhookAnswer>(service.baseUrl, body, {}, { sign: false, path: '/webhook/evolution' });

  beforeAll(async () => {
    db = await createTestDatabase();
    service = await startServiceProcess({ DATABASE_URL: db.url, ...ENV });
  });
  afterAll(async () => {
    await service?.stop();
    await db?.drop();
  });

  it(`is stored whole and acknowledged, and its retry is answered as duplicates (${LARGE} events)`, async () => {
    const instance = `big-${randomUUID().slice(0, 8)}`;
    const body = history(instance, LARGE);
    const before = memoryOf(service.child.pid!);
    const started = performance.now();
    const answer = await post(body);
    const seconds = (performance.now() - started) / 1000;
    const after = memoryOf(service.child.pid!);
    console.info(`${LARGE}-event webhook request: ${(body.length / 1e6).toFixed(1)} MB, status ${answer.status} in ${seconds.toFixed(1)} s, RSS ${before.rss.toFixed(0)} → peak ${after.peak.toFixed(0)} MiB`);
    expect(answer.status).toBe(200);
    // Measured: +210 MiB (one statement for the whole webhook request: +456 MiB, then 503).
    expect(after.peak - before.rss).toBeLessThan(320);
    expect(answer.body).toMatchObject({ accepted: LARGE, duplicates: 0 });
    expect(await stored(instance)).toBe(LARGE);
    expect((await post(body)).body).toMatchObject({ accepted: 0, duplicates: LARGE });
  }, 120_000);

  it('answers 413 naming the cap to one event more than WEBHOOK_MAX_EVENTS, storing nothing, and the same again on a retry', async () => {
    const instance = `over-${randomUUID().slice(0, 8)}`;
    const body = history(instance, 100_001);
    for (const attempt of [1, 2]) {
      const answer = await post(body);
      expect({ attempt, status: answer.status }).toEqual({ attempt, status: 413 });
      expect(answer.body.message).toContain('WEBHOOK_MAX_EVENTS (100000)');
    }
    expect(await stored(instance)).toBe(0);
  }, 60_000);

  it('keeps the chunks stored before a failing one: the webhook request gets 503, its retry finds them as duplicates and stores the rest', async () => {
    const instance = `fail-${randomUUID().slice(0, 8)}`;
    // The database refuses one row of the second chunk once (a sequence is not rolled back).
    await db.query(`CREATE SEQUENCE fail_once`);
    await db.query(`CREATE FUNCTION fail_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.message_id = 'evolution:${instance}:msg:H1500' AND nextval('fail_once') = 1 THEN RAISE EXCEPTION 'injected failure'; END IF;
        RETURN NEW;
      END $$`);
    await db.query(`CREATE TRIGGER fail_once BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION fail_once()`);
    try {
      const body = history(instance, 2500);
      const first = await post(body);
      expect(first.status).toBe(503);
      expect(await stored(instance)).toBe(1000);

      const retry = await post(body);
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ accepted: 1500, duplicates: 1000 });
      expect(retry.body.events.slice(999, 1001)).toEqual([
        { id: `evolution:${instance}:msg:H999`, result: 'duplicate' },
        { id: `evolution:${instance}:msg:H1000`, result: 'accepted' },
      ]);
      const counts = await db.query('SELECT duplicate_count, count(*)::int AS n FROM messages WHERE tenant = $1 GROUP BY 1 ORDER BY 1', [instance]);
      expect(counts).toEqual([{ duplicate_count: 0, n: 1500 }, { duplicate_count: 1, n: 1000 }]);
    } finally {
      await db.query('DROP TRIGGER fail_once ON messages');
    }
  }, 60_000);
});
