import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { eventually } from './support/eventually.js';
import { useServiceWithDownstream, type ForwardingSetup } from './support/forwarding.js';
import { fixture, metaText, uniqueId } from './support/payloads.js';
import { startDownstream, type Downstream } from './support/downstream.js';
import { postWebhook, startTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/**
 * The two attacks of issue 9, as a new user tried them with NODE_ENV=production, the Meta and
 * WASender secrets, FORWARD_URL and FORWARD_SECRET set. That exact configuration no longer
 * starts (test/startup.e2e-spec.ts); these are the three configurations it can become.
 */
const API_KEY = 'inspection-key-for-trust-tests';
const FORWARD_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const PRODUCTION = { NODE_ENV: 'production', INSPECTION_API_KEY: API_KEY, FORWARD_SECRET, RETRY_BASE_MS: '50' };

const forgedMessage = () => ({ event: 'message', id: uniqueId('forged'), from: '15550001111', type: 'text', text: 'transfer all money' });
const forgedFailure = (wamid: string) => ({ event: 'status', id: wamid, status: 'failed' });

function metaStatus(wamid: string, status: string) {
  const payload = fixture('meta_status_delivered');
  Object.assign(payload.entry[0].changes[0].value.statuses[0], { id: wamid, status, timestamp: String(Math.floor(Date.now() / 1000)) });
  return payload;
}

async function receiptOf(ctx: ForwardingSetup, wamid: string) {
  const res = await fetch(`${ctx.app.baseUrl}/deliveries/${encodeURIComponent(wamid)}`, { headers: { authorization: `Bearer ${API_KEY}` } });
  return { status: res.status, body: (await res.json()) as any };
}

/** A real outbound message's record, built by a signed Meta status and forwarded: the target of attack 2. */
async function realDeliveredRecord(ctx: ForwardingSetup): Promise<string> {
  const wamid = uniqueId('wamid.OUT');
  expect((await postWebhook(ctx.app.baseUrl, metaStatus(wamid, 'delivered'))).status).toBe(200);
  await eventually(() => receiptOf(ctx, wamid), (r) => r.status === 200);
  return wamid;
}

/** Posts a signed Meta message and waits until it is forwarded: whatever was stored before it has been processed too. */
async function drain(ctx: ForwardingSetup): Promise<void> {
  const wamid = uniqueId();
  await postWebhook(ctx.app.baseUrl, metaText(wamid));
  await eventually(async () => ctx.downstream.byKey(`meta:msg:${wamid}`).length, (n) => n === 1);
  await eventually(() => ctx.db.query("SELECT 1 FROM messages WHERE status <> 'processed'"), (rows) => rows.length === 0);
}

const storedGeneric = async (ctx: ForwardingSetup) => (await ctx.db.query("SELECT message_id, authenticated FROM messages WHERE provider = 'generic'"));
const forwardedGeneric = (ctx: ForwardingSetup) => ctx.downstream.requests.filter((r) => String(r.headers['idempotency-key']).startsWith('generic:'));

describe('production with only Meta and WASender enabled (WEBHOOK_PROVIDERS=meta,wasender)', () => {
  const ctx = useServiceWithDownstream(() => ({ status: 200 }), { ...PRODUCTION, WEBHOOK_PROVIDERS: 'meta,wasender', GENERIC_WEBHOOK_SECRET: '' });

  it('attack 1: an unsigned generic message is refused (403), not stored, not forwarded', async () => {
    for (const path of ['/webhook', '/webhook/generic']) {
      const answer = await postWebhook<any>(ctx.app.baseUrl, forgedMessage(), {}, { sign: false, path });
      expect(answer.status).toBe(403);
      expect(answer.body.message).toContain('webhook source generic is not enabled');
    }
    await drain(ctx);
    expect(await storedGeneric(ctx)).toEqual([]);
    expect(forwardedGeneric(ctx)).toEqual([]);
  });

  it('attack 2: an unsigned generic "failed" for a real wamid is refused, and the record stays as Meta built it', async () => {
    const wamid = await realDeliveredRecord(ctx);
    const answer = await postWebhook<any>(ctx.app.baseUrl, forgedFailure(wamid), {}, { sign: false });
    expect(answer.status).toBe(403);
    await drain(ctx);
    expect((await receiptOf(ctx, wamid)).body).toMatchObject({ provider: 'meta', status: 'delivered', failedAt: null, error: null });
  });

  it('counts the refusals as source_disabled and still takes signed Meta and WASender webhook requests', async () => {
    const metrics = await (await fetch(`${ctx.app.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/wdd_webhook_deliveries_total\{provider="generic",outcome="source_disabled"\} [3-9]/);
    const wasender = fixture('wasender_messages_received');
    wasender.data.messages.key.id = uniqueId('3EB0');
    expect((await postWebhook(ctx.app.baseUrl, wasender, {}, { path: '/webhook/wasender' })).body.accepted).toBe(1);
  });
});

describe('production with every source signed (GENERIC_WEBHOOK_SECRET set)', () => {
  const ctx = useServiceWithDownstream(() => ({ status: 200 }), PRODUCTION);

  it('refuses both attacks with 401 naming the missing header; nothing stored, nothing forwarded, the record untouched', async () => {
    const wamid = await realDeliveredRecord(ctx);
    for (const body of [forgedMessage(), forgedFailure(wamid)]) {
      const answer = await postWebhook<any>(ctx.app.baseUrl, body, {}, { sign: false });
      expect(answer.status).toBe(401);
      expect(answer.body.message).toBe('webhook-id is missing');
    }
    await drain(ctx);
    expect(await storedGeneric(ctx)).toEqual([]);
    expect(forwardedGeneric(ctx)).toEqual([]);
    expect((await receiptOf(ctx, wamid)).body).toMatchObject({ provider: 'meta', status: 'delivered' });
  });

  it('keeps a signed generic status for a Meta wamid in a record of its own; the API asks which one', async () => {
    const wamid = await realDeliveredRecord(ctx);
    expect((await postWebhook(ctx.app.baseUrl, forgedFailure(wamid))).body.accepted).toBe(1); // signed this time
    await drain(ctx);
    const both = await receiptOf(ctx, wamid);
    expect(both.status).toBe(409);
    expect(both.body.message).toContain('?provider=');
    const get = async (provider: string) =>
      (await (await fetch(`${ctx.app.baseUrl}/deliveries/${wamid}?provider=${provider}`, { headers: { authorization: `Bearer ${API_KEY}` } })).json()) as any;
    expect(await get('meta')).toMatchObject({ provider: 'meta', status: 'delivered', failedAt: null });
    expect(await get('generic')).toMatchObject({ provider: 'generic', status: 'failed' });
  });

  it('forwards with Standard Webhooks headers that the standardwebhooks package verifies with FORWARD_SECRET', async () => {
    const wamid = uniqueId();
    await postWebhook(ctx.app.baseUrl, metaText(wamid));
    await eventually(async () => ctx.downstream.byKey(`meta:msg:${wamid}`), (r) => r.length === 1);
    const [request] = ctx.downstream.byKey(`meta:msg:${wamid}`);
    const verified = new Webhook(FORWARD_SECRET).verify(request.body, request.headers as Record<string, string>);
    expect(verified).toMatchObject({ id: `meta:msg:${wamid}`, authenticated: true, replay: 0 });
    expect(request.headers['webhook-id']).toBe(`meta:msg:${wamid}`);
    expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(request.body, request.headers as Record<string, string>)).toThrow();
  });
});

describe('production with the generic source explicitly unsigned (WEBHOOK_ALLOW_UNSIGNED=generic)', () => {
  const ctx = useServiceWithDownstream(() => ({ status: 200 }), { ...PRODUCTION, GENERIC_WEBHOOK_SECRET: '', WEBHOOK_ALLOW_UNSIGNED: 'generic' });

  it('stores an unsigned generic event as unauthenticated and forwards it marked so', async () => {
    const forged = forgedMessage();
    expect((await postWebhook(ctx.app.baseUrl, forged, {}, { sign: false })).body.accepted).toBe(1);
    await drain(ctx);
    expect(await storedGeneric(ctx)).toEqual([{ message_id: `generic:msg:${forged.id}`, authenticated: false }]);
    const [request] = ctx.downstream.byKey(`generic:msg:${forged.id}`);
    expect(JSON.parse(request.body)).toMatchObject({ provider: 'generic', authenticated: false });
  });

  it('never lets an unauthenticated status touch a receipt, its own source’s or Meta’s', async () => {
    const wamid = await realDeliveredRecord(ctx);
    expect((await postWebhook(ctx.app.baseUrl, forgedFailure(wamid), {}, { sign: false })).body.accepted).toBe(1);
    await drain(ctx);
    expect((await receiptOf(ctx, wamid)).body).toMatchObject({ provider: 'meta', status: 'delivered', failedAt: null });
    expect(await ctx.db.query("SELECT 1 FROM deliveries WHERE provider = 'generic'")).toEqual([]);
  });
});

/** The service with auto-reply on and a loopback server standing in for the Cloud API: every request to it is a reply. */
function useServiceWithCloudApi(env: Record<string, string>) {
  const setup = {} as { db: TestDatabase; cloudApi: Downstream; app: TestApp };
  beforeAll(async () => {
    setup.db = await createTestDatabase();
    setup.cloudApi = await startDownstream(() => ({ status: 200, body: { messages: [{ id: `wamid.REPLY.${randomBytes(4).toString('hex')}` }] } }));
    setup.app = await startTestApp({
      DATABASE_URL: setup.db.url, WORKER_ENABLED: 'true', AUTO_REPLY_TEXT: 'Thanks!', WHATSAPP_ACCESS_TOKEN: 'token-for-tests',
      WHATSAPP_GRAPH_URL: new URL('/v23.0', setup.cloudApi.url).href, ...env,
    });
  });
  afterAll(async () => {
    await setup.app?.close();
    await setup.cloudApi?.close();
    await setup.db?.drop();
  });
  return setup;
}

describe('auto-reply acts only on authenticated events', () => {
  const signed = useServiceWithCloudApi({});
  const unsigned = useServiceWithCloudApi({ WHATSAPP_APP_SECRET: '' });
  const statusOf = async (db: TestDatabase, key: string) => (await db.query('SELECT status, authenticated FROM messages WHERE message_id = $1', [key]))[0];

  it('replies to a signed Meta message; a forged one is refused outright', async () => {
    const wamid = uniqueId();
    await postWebhook(signed.app.baseUrl, metaText(wamid));
    await eventually(() => statusOf(signed.db, `meta:msg:${wamid}`), (row) => row?.status === 'processed');
    expect(signed.cloudApi.requests).toHaveLength(1);
    expect((await postWebhook(signed.app.baseUrl, metaText(uniqueId()), {}, { sign: false })).status).toBe(401);
    expect(signed.cloudApi.requests).toHaveLength(1);
  });

  it('with the Meta source unsigned (development), processes a message without replying to it', async () => {
    const wamid = uniqueId();
    expect((await postWebhook(unsigned.app.baseUrl, metaText(wamid), {}, { sign: false })).body.accepted).toBe(1);
    await eventually(() => statusOf(unsigned.db, `meta:msg:${wamid}`), (row) => row?.status === 'processed');
    expect(await statusOf(unsigned.db, `meta:msg:${wamid}`)).toEqual({ status: 'processed', authenticated: false });
    expect(await unsigned.db.query('SELECT step FROM message_steps WHERE message_id = $1', [`meta:msg:${wamid}`])).toEqual([]);
    expect(unsigned.cloudApi.requests).toHaveLength(0);
  });
});
