import { eventually } from '../support/eventually.js';
import { fixture, metaBatch, metaText, uniqueId } from '../support/payloads.js';
import { hmacHex, metaSignature, TEST_SECRETS } from '../support/signing.js';
import { postWebhook, startTestApp, useServiceWithDatabase, type TestApp } from '../support/test-app.js';

const ctx = useServiceWithDatabase({ WEBHOOK_PROVIDERS: 'meta,360dialog', WORKER_ENABLED: 'true' });

const signed = (raw: string, secret = TEST_SECRETS.DIALOG360_PLATFORM_SECRET) => ({ 'x-360dialog-signature': hmacHex('sha256', secret, raw) });
const post = (baseUrl: string, body: unknown, headers?: (raw: string) => Record<string, string>) => {
  const raw = JSON.stringify(body);
  return postWebhook<any>(baseUrl, raw, headers ? headers(raw) : signed(raw), { sign: false, path: '/webhook/360dialog' });
};
const row = async (key: string) => (await ctx.db.query('SELECT * FROM messages WHERE message_id = $1', [key]))[0];
function status(wamid: string, value: string, at: number) {
  const payload = fixture('meta_status_delivered');
  Object.assign(payload.entry[0].changes[0].value.statuses[0], { id: wamid, status: value, timestamp: String(1750030000 + at) });
  return payload;
}

describe('360dialog at /webhook/360dialog', () => {
  it('stores Meta-shaped webhook requests signed with the platform secret, in its own key namespace, with the tenant', async () => {
    const wamid = uniqueId();
    expect((await post(ctx.service.baseUrl, metaText(wamid))).body).toMatchObject({ accepted: 1, events: [{ id: `360dialog:msg:${wamid}` }] });
    expect(await row(`360dialog:msg:${wamid}`)).toMatchObject({ provider: '360dialog', tenant: '106540352242922', authenticated: true });
    // The same wamid from Meta itself is another source's event.
    expect((await postWebhook(ctx.service.baseUrl, metaText(wamid), {}, { path: '/webhook/meta' })).body.accepted).toBe(1);
  });

  it.each([
    ['forged with another secret', (raw: string) => signed(raw, 'not-the-platform-secret'), 'does not match'],
    ['missing (Meta’s own signature does not count)', (raw: string) => ({ 'x-hub-signature-256': metaSignature(raw) }), 'is missing'],
    ['malformed', () => ({ 'x-360dialog-signature': 'sha256=zz' }), 'is malformed'],
  ])('answers 401 to a signature %s and stores nothing', async (_name, headers, reason) => {
    const wamid = uniqueId();
    const answer = await post(ctx.service.baseUrl, metaText(wamid), headers);
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain(`x-360dialog-signature ${reason}`);
    expect(await row(`360dialog:msg:${wamid}`)).toBeUndefined();
  });

  it('takes a batch of 2,000 updates in one webhook request', async () => {
    const { payload, keys } = metaBatch(2000);
    const answer = await post(ctx.service.baseUrl, payload);
    expect(answer.body).toMatchObject({ accepted: 2000, duplicates: 0 });
    expect(answer.body.events.map((e: { id: string }) => e.id).sort()).toEqual(keys.map((key) => key.replace(/^meta:/, '360dialog:')).sort());
  });

  it('moves its own receipt only forward; Meta’s record of the same wamid is another', async () => {
    const wamid = uniqueId('wamid.OUT');
    await post(ctx.service.baseUrl, status(wamid, 'read', 30));
    await Promise.all([post(ctx.service.baseUrl, status(wamid, 'sent', 10)), post(ctx.service.baseUrl, status(wamid, 'delivered', 20)), post(ctx.service.baseUrl, status(wamid, 'read', 30))]);
    await postWebhook(ctx.service.baseUrl, status(wamid, 'sent', 5), {}, { path: '/webhook/meta' });
    const record = await eventually(
      async () => (await fetch(`${ctx.service.baseUrl}/deliveries/${wamid}?provider=360dialog`)).json() as Promise<any>,
      (body) => body.status === 'read' && body.deliveredAt !== null && body.sentAt !== null,
    );
    expect(record.sentAt).toBe(new Date((1750030000 + 10) * 1000).toISOString());
    const meta = await eventually(
      async () => (await fetch(`${ctx.service.baseUrl}/deliveries/${wamid}?provider=meta`)).json() as Promise<any>,
      (body) => body.status === 'sent',
    );
    expect(meta.sentAt).toBe(new Date((1750030000 + 5) * 1000).toISOString());
  });
});

describe('360dialog with a custom header secret', () => {
  const HEADER_SECRET = 'partner-header-secret-0001';
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      DATABASE_URL: ctx.db.url, WEBHOOK_PROVIDERS: '360dialog', DIALOG360_PLATFORM_SECRET: '', DIALOG360_HEADER_SECRET: HEADER_SECRET, DIALOG360_HEADER_NAME: 'X-Partner-Auth',
    });
  });
  afterAll(() => app?.close());

  it('accepts the configured header value and refuses any other', async () => {
    expect((await post(app.baseUrl, metaText(), () => ({ 'x-partner-auth': HEADER_SECRET }))).status).toBe(200);
    const wrong = await post(app.baseUrl, metaText(), () => ({ 'x-partner-auth': 'partner-header-secret-0002' }));
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toContain('X-Partner-Auth does not match');
    expect((await post(app.baseUrl, metaText(), (raw) => signed(raw))).status).toBe(401);
  });
});
