import { createHmac } from 'node:crypto';
import { fixture, metaText, uniqueId } from './support/payloads.js';
import { postWebhook, useServiceWithDatabase } from './support/test-app.js';

const APP_SECRET = 'meta-app-secret-for-tests';
const WASENDER_SECRET = 'wasender-secret-for-tests';

const ctx = useServiceWithDatabase({ WHATSAPP_APP_SECRET: APP_SECRET, WASENDER_WEBHOOK_SECRET: WASENDER_SECRET });

const sign = (raw: string | Buffer, secret = APP_SECRET) => 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');
const stored = async (key: string) => (await ctx.db.query('SELECT 1 FROM messages WHERE message_id = $1', [key])).length === 1;

/** Meta escapes non-ASCII characters in the JSON it signs, as \\uXXXX sequences. */
function metaRawBody(wamid: string): string {
  return JSON.stringify(metaText(wamid, 'Olá, café às 9h? 👍')).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

describe('Meta X-Hub-Signature-256', () => {
  it('accepts a body signed over its exact bytes, non-ASCII characters escaped as Meta sends them', async () => {
    const wamid = uniqueId();
    const raw = metaRawBody(wamid);
    expect(raw).toContain('\\u00e1');
    const answer = await postWebhook(ctx.service.baseUrl, raw, { 'x-hub-signature-256': sign(raw) });
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(1);
    const [row] = await ctx.db.query('SELECT payload FROM messages WHERE message_id = $1', [`meta:msg:${wamid}`]);
    expect(row.payload.message.text.body).toBe('Olá, café às 9h? 👍');
  });

  it('accepts raw UTF-8 non-ASCII bytes signed as sent', async () => {
    const wamid = uniqueId();
    const raw = Buffer.from(JSON.stringify(metaText(wamid, 'Grüße 🎉')), 'utf8');
    const answer = await postWebhook(ctx.service.baseUrl, raw, { 'x-hub-signature-256': sign(raw) });
    expect(answer.status).toBe(200);
  });

  it.each([
    ['forged with another secret', (raw: string) => sign(raw, 'not-the-app-secret')],
    ['computed over the re-serialized JSON instead of the bytes sent', (raw: string) => sign(JSON.stringify(JSON.parse(raw)))],
    ['malformed', () => 'sha256=zz'],
    ['missing', () => undefined],
  ])('answers 401 to a signature %s and stores nothing', async (_name, signature) => {
    const wamid = uniqueId();
    const raw = metaRawBody(wamid);
    const header = signature(raw);
    const answer = await postWebhook<{ message: string }>(ctx.service.baseUrl, raw, header ? { 'x-hub-signature-256': header } : {});
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(/X-Hub-Signature-256/);
    expect(JSON.stringify(answer.body)).not.toContain(APP_SECRET);
    expect(await stored(`meta:msg:${wamid}`)).toBe(false);
  });
});

describe('WASender X-Webhook-Signature', () => {
  const delivery = () => {
    const payload = fixture('wasender_messages_received');
    payload.data.messages.key.id = uniqueId('3EB0');
    return { payload, key: `wasender:msg:${payload.data.messages.key.id}` };
  };

  it('accepts the configured secret', async () => {
    const { payload, key } = delivery();
    const answer = await postWebhook(ctx.service.baseUrl, payload, { 'x-webhook-signature': WASENDER_SECRET });
    expect(answer.status).toBe(200);
    expect(await stored(key)).toBe(true);
  });

  it.each([['forged', 'wasender-secret-for-testz'], ['missing', undefined]])('answers 401 to a %s signature and stores nothing', async (_n, header) => {
    const { payload, key } = delivery();
    const answer = await postWebhook(ctx.service.baseUrl, payload, header ? { 'x-webhook-signature': header } : {});
    expect(answer.status).toBe(401);
    expect(await stored(key)).toBe(false);
  });

  it('does not accept the WASender secret in place of a Meta signature', async () => {
    const wamid = uniqueId();
    const answer = await postWebhook(ctx.service.baseUrl, metaText(wamid), { 'x-webhook-signature': WASENDER_SECRET });
    expect(answer.status).toBe(401);
  });
});
