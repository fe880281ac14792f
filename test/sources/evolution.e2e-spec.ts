import { randomUUID } from 'node:crypto';
import { startDownstream, type Downstream } from '../support/downstream.js';
import { eventually } from '../support/eventually.js';
import { fixture } from '../support/payloads.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { postWebhook, useServiceWithDatabase } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** The instance token the fixtures carry in `apikey`, as Evolution sends it. */
const FIXTURE_KEY = 'B6D711FCDE4D4FD5936544120E713976';
const HEADER_KEY = 'evolution-header-secret-0001';
const ENV = { WEBHOOK_PROVIDERS: 'meta,evolution', EVOLUTION_API_KEY: `${FIXTURE_KEY},${HEADER_KEY}` };

/** An Evolution body from a fixture, in its own instance; `id` replaces the WhatsApp message id. */
function body(name: string, instance: string, id?: string) {
  const value = fixture(`evolution/${name}`);
  value.instance = instance;
  if (id !== undefined) {
    for (const item of Array.isArray(value.data) ? value.data : [value.data]) {
      if (item.key) item.key.id = id;
      if (item.keyId) item.keyId = id;
    }
  }
  return value;
}
const instance = () => `inst-${randomUUID().slice(0, 8)}`;
const messageId = () => `3EB0${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;

describe('Evolution API at /webhook/evolution', () => {
  const ctx = useServiceWithDatabase({ ...ENV, WORKER_ENABLED: 'true' });
  const post = (value: unknown, path = '/webhook/evolution', headers: Record<string, string> = {}) =>
    postWebhook<any>(ctx.service.baseUrl, value, headers, { sign: false, path });
  const rows = (tenant: string) => ctx.db.query('SELECT message_id, kind, type, sender, from_me, authenticated, duplicate_count, payload FROM messages WHERE tenant = $1 ORDER BY message_id', [tenant]);

  it('keys a message by instance and id, the same for messages.upsert twice and for send.message, and never stores apikey', async () => {
    const i = instance();
    const id = messageId();
    expect((await post(body('messages_upsert_text_inbound', i, id))).body).toMatchObject({ accepted: 1, events: [{ id: `evolution:${i}:msg:${id}` }] });
    expect((await post(body('messages_upsert_text_inbound_duplicate', i, id))).body).toMatchObject({ accepted: 0, duplicates: 1 });
    const [stored] = await rows(i);
    expect(stored).toMatchObject({ kind: 'message', type: 'text', sender: '5511987654321', from_me: false, authenticated: true, duplicate_count: 1 });
    expect(JSON.stringify(stored.payload)).not.toContain(FIXTURE_KEY);
    expect(stored.payload).not.toHaveProperty('apikey');
    const api = await (await fetch(`${ctx.service.baseUrl}/messages/${encodeURIComponent(stored.message_id)}`)).text();
    expect(api).toContain(i);
    expect(api).not.toContain(FIXTURE_KEY);

    const own = messageId();
    await post(body('send_message', i, own));
    expect((await post(body('messages_upsert_from_me', i, own))).body.duplicates).toBe(1);
  });

  it.each(['messages-upsert', 'MESSAGES_UPSERT', 'messages.upsert'])('takes the event appended to the URL (WEBHOOK_BY_EVENTS): /webhook/evolution/%s', async (suffix) => {
    const i = instance();
    expect((await post(body('messages_upsert_text_inbound', i, messageId()), `/webhook/evolution/${suffix}`)).status).toBe(200);
    expect(await rows(i)).toHaveLength(1);
  });

  // Its key may be in the body, so the body is decoded before the key is checked: found by
  // test/fuzz.e2e-spec.ts, a JSON body that is no object (null) threw in the check, unanswered.
  it.each(['null', '[]', '1', '"apikey"'])('answers 400 to the JSON body %s, which can hold no key', async (text) => {
    const answer = await postWebhook<any>(ctx.service.baseUrl, text, { 'content-type': 'application/json' }, { sign: false, path: '/webhook/evolution' });
    expect(answer).toMatchObject({ status: 400, body: { message: 'body is not a JSON object' } });
  });

  it('answers 404 to a URL suffix on a source that takes none', async () => {
    const answer = await post(body('messages_upsert_text_inbound', instance(), messageId()), '/webhook/meta/messages-upsert');
    expect(answer.status).toBe(404);
  });

  it('takes the key from a header when the body carries none (apikey null), with or without Bearer', async () => {
    const i = instance();
    for (const authorization of [`Bearer ${HEADER_KEY}`, HEADER_KEY]) {
      const value = { ...body('messages_upsert_text_inbound', i, messageId()), apikey: null };
      expect((await post(value, '/webhook/evolution', { authorization })).status).toBe(200);
    }
    expect(await rows(i)).toHaveLength(2);
  });

  it.each([
    ['a wrong apikey', { apikey: 'F00D711FCDE4D4FD5936544120E71397' }, {}, 'does not match'],
    ['no apikey and no header', { apikey: null }, {}, 'is missing'],
    ['a wrong header token', { apikey: null }, { authorization: 'Bearer evolution-header-secret-0002' }, 'does not match'],
  ])('answers 401 to %s and stores nothing', async (_name, change, headers, reason) => {
    const i = instance();
    const answer = await post({ ...body('messages_upsert_text_inbound', i, messageId()), ...change }, '/webhook/evolution', headers);
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain(reason);
    expect(JSON.stringify(answer.body)).not.toContain(FIXTURE_KEY);
    expect(await rows(i)).toEqual([]);
  });

  it('takes a messages.set of 2,000 messages in one webhook request', async () => {
    const i = instance();
    const history = body('messages_set_history', i);
    const template = history.data[0];
    history.data = Array.from({ length: 2000 }, (_, n) => ({ ...template, key: { ...template.key, id: `HIST${n}` }, messageTimestamp: Math.floor(Date.now() / 1000) - n }));
    const answer = await post(history);
    expect(answer.body).toMatchObject({ accepted: 2000, duplicates: 0 });
    expect((await ctx.db.query('SELECT count(*)::int AS n FROM messages WHERE tenant = $1', [i]))[0].n).toBe(2000);
    expect((await post(history)).body).toMatchObject({ accepted: 0, duplicates: 2000 });
  });

  it('moves the receipt only forward, whatever the order of messages.update', async () => {
    const i = instance();
    const id = messageId();
    await post(body('messages_update_read', i, id));
    await Promise.all(['messages_update_delivery_ack', 'messages_update_server_ack', 'messages_update_read', 'messages_update_delivery_ack'].map((name) => post(body(name, i, id))));
    expect((await rows(i)).map((r) => r.message_id)).toEqual(['DELIVERY_ACK', 'READ', 'SERVER_ACK'].map((s) => `evolution:${i}:msg:${id}:${s}`));
    const record = await eventually(
      async () => (await fetch(`${ctx.service.baseUrl}/deliveries/${id}?provider=evolution`)).json() as Promise<any>,
      (value) => value.status === 'read' && value.sentAt !== null && value.deliveredAt !== null,
    );
    expect(record).toMatchObject({ provider: 'evolution', status: 'read' });
  });
});

describe('Evolution API keys never reach a forward or a log line', () => {
  let db: TestDatabase;
  let downstream: Downstream;
  let service: ServiceProcess;
  beforeAll(async () => {
    db = await createTestDatabase();
    downstream = await startDownstream();
    service = await startServiceProcess({ ...ENV, DATABASE_URL: db.url, FORWARD_URL: downstream.url, WORKER_ENABLED: 'true', LOG_LEVEL: 'debug' });
  });
  afterAll(async () => {
    await service?.stop();
    await downstream?.close();
    await db?.drop();
  });

  it('forwards the event without apikey, and logs neither the accepted key nor a refused one', async () => {
    const i = instance();
    const id = messageId();
    const good = body('messages_upsert_text_inbound', i, id);
    expect((await postWebhook(service.baseUrl, good, {}, { sign: false, path: '/webhook/evolution' })).status).toBe(200);
    const refusedKey = 'C0FFEE11CDE4D4FD5936544120E71397';
    const forged = { ...body('messages_upsert_text_inbound', i, messageId()), apikey: refusedKey };
    expect((await postWebhook(service.baseUrl, forged, { authorization: `Bearer ${refusedKey}` }, { sign: false, path: '/webhook/evolution' })).status).toBe(401);
    await downstream.waitFor(1);
    const [forward] = downstream.byKey(`evolution:${i}:msg:${id}`);
    expect(JSON.parse(forward.body)).toMatchObject({ provider: 'evolution', tenant: i, from: '5511987654321' });
    expect(forward.body).not.toContain(FIXTURE_KEY);
    await eventually(async () => service.output(), (output) => output.includes('rejected a evolution webhook request'));
    expect(service.output()).not.toContain(FIXTURE_KEY);
    expect(service.output()).not.toContain(refusedKey);
  });
});
