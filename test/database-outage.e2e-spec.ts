import { TcpProxy } from './support/tcp-proxy.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { metaText, uniqueId } from './support/payloads.js';
import { postWebhook, startTestApp, type TestApp } from './support/test-app.js';

let db: TestDatabase;
let proxy: TcpProxy;
let service: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  const direct = new URL(db.url);
  proxy = await new TcpProxy(direct.hostname, Number(direct.port || 5432)).start();
  const viaProxy = new URL(db.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  service = await startTestApp({ DATABASE_URL: viaProxy.toString(), DB_STATEMENT_TIMEOUT_MS: '1500' });
});
afterAll(async () => {
  await service?.close();
  await proxy?.stop();
  await db?.drop();
});

/** Liveness must not depend on the database: an outage must not get every instance restarted. */
const live = async () => (await fetch(`${service.baseUrl}/health`)).status;
const ready = async () => {
  const res = await fetch(`${service.baseUrl}/health/ready`);
  return { status: res.status, body: (await res.json()) as { details: Record<string, { status: string; message?: string }> } };
};
const stored = async (wamid: string) => (await db.query('SELECT 1 FROM messages WHERE message_id = $1', [`meta:msg:${wamid}`])).length;

describe('the database going away under a running service', () => {
  it('answers 503 while it is down, stores nothing half-way, and accepts the retry as new once it is back', async () => {
    expect((await postWebhook(service.baseUrl, metaText(uniqueId()))).body.accepted).toBe(1);
    expect((await ready()).status).toBe(200);
    expect(await live()).toBe(200);

    await proxy.stop();
    const wamid = uniqueId();
    const during = await postWebhook<{ statusCode: number; message: string }>(service.baseUrl, metaText(wamid));
    expect(during.status).toBe(503);
    expect(during.body.message).toMatch(/retry/);
    const notReady = await ready();
    expect(notReady.status).toBe(503);
    expect(notReady.body.details.database.status).toBe('down');
    expect(await live()).toBe(200);
    expect(await stored(wamid)).toBe(0);

    await proxy.start();
    const retry = await postWebhook(service.baseUrl, metaText(wamid));
    expect(retry.status).toBe(200);
    expect(retry.body.events).toEqual([{ id: `meta:msg:${wamid}`, result: 'accepted' }]);
    expect(await stored(wamid)).toBe(1);
    expect((await ready()).status).toBe(200);
    expect(await live()).toBe(200);
  });

  it('answers 503 within seconds when the database hangs instead of refusing', async () => {
    proxy.blackhole();
    const wamid = uniqueId();
    const started = Date.now();
    const during = await postWebhook(service.baseUrl, metaText(wamid));
    expect(during.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(8000);

    const probed = Date.now();
    const notReady = await ready();
    expect(notReady.status).toBe(503);
    expect(notReady.body.details.database).toEqual(expect.objectContaining({ status: 'down', message: 'timeout of 2000ms exceeded' }));
    expect(Date.now() - probed).toBeLessThan(3000);
    expect(await live()).toBe(200);

    await proxy.start();
    const retry = await postWebhook(service.baseUrl, metaText(wamid));
    expect(retry.body.events).toEqual([{ id: `meta:msg:${wamid}`, result: 'accepted' }]);
    expect((await ready()).status).toBe(200);
  });
});
