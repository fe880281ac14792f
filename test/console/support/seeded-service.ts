import { startDownstream, type Downstream } from '../../support/downstream.js';
import { eventually } from '../../support/eventually.js';
import { fixture, metaText, uniqueId } from '../../support/payloads.js';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { postWebhook } from '../../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

export const API_KEY = 'console-test-inspection-key-0001';

export interface SeededService {
  db: TestDatabase;
  downstream: Downstream;
  service: ServiceProcess;
  /** Keys whose forward the downstream refuses (503) until `fix()`. */
  broken: Set<string>;
  deadIds: string[];
  /** An outbound message with a receipt (a `delivered` status was received). */
  deliveredWamid: string;
  fix(): void;
  api(path: string): Promise<any>;
  stop(): Promise<void>;
}

/**
 * The built service as a real process on a fresh database, INSPECTION_API_KEY set, forwarding
 * to a loopback downstream that refuses some events, so that: 60 Meta messages (5 of them
 * redelivered), 12 generic ones, 3 dead letters and one receipt exist.
 */
export async function startSeededService(): Promise<SeededService> {
  const db = await createTestDatabase();
  const broken = new Set<string>();
  let fixed = false;
  const downstream = await startDownstream((_n, req) => (!fixed && broken.has(String(req.headers['idempotency-key'])) ? { status: 503 } : { status: 200 }));
  const service = await startServiceProcess({
    DATABASE_URL: db.url, INSPECTION_API_KEY: API_KEY, FORWARD_URL: downstream.url, WORKER_ENABLED: 'true',
    MAX_ATTEMPTS: '2', RETRY_BASE_MS: '100', RETRY_MAX_MS: '200',
  });
  const api = async (path: string): Promise<any> => (await fetch(`${service.baseUrl}${path}`, { headers: { authorization: `Bearer ${API_KEY}` } })).json();

  const deadIds: string[] = [];
  for (let i = 0; i < 60; i++) {
    const wamid = uniqueId('wamid.CONSOLE');
    if (i % 20 === 7) {
      broken.add(`meta:msg:${wamid}`);
      deadIds.push(`meta:msg:${wamid}`);
    }
    const body = metaText(wamid, `message ${i}`);
    await postWebhook(service.baseUrl, body);
    if (i % 12 === 0) await postWebhook(service.baseUrl, body); // a redelivery: a duplicate
  }
  for (let i = 0; i < 12; i++) {
    const event = { event: 'message', id: uniqueId('gen'), from: `+4915112345${String(i).padStart(3, '0')}`, type: 'text', tenant: 'shop-eu', timestamp: Math.floor(Date.now() / 1000) };
    await postWebhook(service.baseUrl, event, {}, { path: '/webhook/generic' });
  }
  const deliveredWamid = uniqueId('wamid.OUT');
  const status = fixture('meta_status_delivered');
  status.entry[0].changes[0].value.statuses[0].id = deliveredWamid;
  await postWebhook(service.baseUrl, status, {}, { path: '/webhook/meta' });

  await eventually(
    () => api('/messages/stats'),
    (s: any) => s.dead === deadIds.length && s.byStatus.received + s.byStatus.processing + s.byStatus.failed === 0,
    30_000,
  );
  await spreadOverTheLastHour(db);
  return {
    db, downstream, service, broken, deadIds, deliveredWamid, api,
    fix: () => (fixed = true),
    async stop() {
      await service.stop();
      await downstream.close();
      await db.drop();
    },
  };
}

/** Moves each event (and what happened to it) back by up to 54 minutes, so the Overview's hour has a shape. */
async function spreadOverTheLastHour(db: TestDatabase): Promise<void> {
  await db.query(`
    WITH shift AS (
      SELECT message_id, make_interval(mins => ((row_number() OVER (ORDER BY received_at, message_id)) * 37 % 55)::int) AS back FROM messages
    ), events AS (
      UPDATE messages m SET received_at = m.received_at - s.back, processed_at = m.processed_at - s.back, last_duplicate_at = m.last_duplicate_at - s.back
      FROM shift s WHERE s.message_id = m.message_id
    ), steps AS (
      UPDATE message_steps x SET completed_at = x.completed_at - s.back FROM shift s WHERE s.message_id = x.message_id
    ), history AS (
      UPDATE event_history x SET at = x.at - s.back FROM shift s WHERE s.message_id = x.message_id
    )
    SELECT 1`);
}
