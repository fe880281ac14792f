import { randomBytes } from 'node:crypto';
import { fixture, metaText, uniqueId } from './support/payloads.js';
import { metaSignature, standardWebhookHeaders } from './support/signing.js';
import { postWebhook, useServiceWithDatabase } from './support/test-app.js';

// Every secret is given twice, new then old: both must verify during a rotation.
const META = { current: 'meta-app-secret-new', previous: 'meta-app-secret-old' };
const WASENDER = { current: 'wasender-secret-new', previous: 'wasender-secret-old' };
const whsec = () => `whsec_${randomBytes(32).toString('base64')}`;
const GENERIC = { current: whsec(), previous: whsec() };

const ctx = useServiceWithDatabase({
  WHATSAPP_APP_SECRET: `${META.current},${META.previous}`,
  WASENDER_WEBHOOK_SECRET: `${WASENDER.current}, ${WASENDER.previous}`,
  GENERIC_WEBHOOK_SECRET: `${GENERIC.current},${GENERIC.previous}`,
});

const stored = async (key: string) => (await ctx.db.query('SELECT authenticated FROM messages WHERE message_id = $1', [key]))[0];
const post = (raw: string, headers: Record<string, string>, path: string) => postWebhook<any>(ctx.service.baseUrl, raw, headers, { sign: false, path });

/** Meta escapes non-ASCII characters in the JSON it signs, as \uXXXX sequences. */
function metaRawBody(wamid: string): string {
  return JSON.stringify(metaText(wamid, 'Olá, café às 9h? 👍')).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

function wasenderBody() {
  const payload = fixture('wasender_messages_received');
  payload.data.messages.key.id = uniqueId('3EB0');
  return { raw: JSON.stringify(payload), key: `wasender:msg:${payload.data.messages.key.id}` };
}

function genericBody(fields: Record<string, unknown> = {}) {
  const id = uniqueId('order');
  return { raw: JSON.stringify({ event: 'message.received', id, from: '15550001111', type: 'text', text: { body: 'hi' }, ...fields }), key: `generic:msg:${id}` };
}

describe.each(['/webhook', '/webhook/meta'])('Meta X-Hub-Signature-256 on %s', (path) => {
  it.each([['current', META.current], ['previous', META.previous]])('accepts the exact bytes signed with the %s app secret', async (_n, secret) => {
    const wamid = uniqueId();
    const raw = metaRawBody(wamid);
    expect(raw).toContain('\\u00e1');
    const answer = await post(raw, { 'x-hub-signature-256': metaSignature(raw, secret) }, path);
    expect(answer).toMatchObject({ status: 200, body: { accepted: 1 } });
    expect(await stored(`meta:msg:${wamid}`)).toEqual({ authenticated: true });
  });

  it.each([
    ['forged with another secret', (raw: string) => metaSignature(raw, 'not-the-app-secret'), 'does not match'],
    ['computed over the re-serialized JSON instead of the bytes sent', (raw: string) => metaSignature(JSON.stringify(JSON.parse(raw)), META.current), 'does not match'],
    ['malformed', () => 'sha256=zz', 'is malformed'],
    ['missing', () => undefined, 'is missing'],
  ])('answers 401 to a signature %s, naming the header, and stores nothing', async (_name, signature, reason) => {
    const wamid = uniqueId();
    const raw = metaRawBody(wamid);
    const header = signature(raw);
    const answer = await post(raw, header ? { 'x-hub-signature-256': header } : {}, path);
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain(`X-Hub-Signature-256 ${reason}`);
    expect(JSON.stringify(answer.body)).not.toContain(META.current);
    expect(await stored(`meta:msg:${wamid}`)).toBeUndefined();
  });

  it('does not take the WASender secret or a Standard Webhooks signature in place of a Meta signature', async () => {
    const wamid = uniqueId();
    const raw = JSON.stringify(metaText(wamid));
    const answer = await post(raw, { 'x-webhook-signature': WASENDER.current, ...standardWebhookHeaders(raw, GENERIC.current) }, path);
    expect(answer.status).toBe(401);
    expect(await stored(`meta:msg:${wamid}`)).toBeUndefined();
  });
});

describe.each(['/webhook', '/webhook/wasender'])('WASender X-Webhook-Signature on %s', (path) => {
  it.each([['current', WASENDER.current], ['previous', WASENDER.previous]])('accepts the %s secret', async (_n, secret) => {
    const { raw, key } = wasenderBody();
    expect((await post(raw, { 'x-webhook-signature': secret }, path)).status).toBe(200);
    expect(await stored(key)).toEqual({ authenticated: true });
  });

  it.each([
    ['forged', 'wasender-secret-nex', 'does not match'],
    ['missing', undefined, 'is missing'],
  ])('answers 401 to a %s secret, naming the header, and stores nothing', async (_n, header, reason) => {
    const { raw, key } = wasenderBody();
    const answer = await post(raw, header ? { 'x-webhook-signature': header } : {}, path);
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain(`X-Webhook-Signature ${reason}`);
    expect(await stored(key)).toBeUndefined();
  });
});

describe.each(['/webhook', '/webhook/generic'])('Standard Webhooks on the generic source, %s', (path) => {
  it.each([['current', () => GENERIC.current], ['previous', () => GENERIC.previous]])(
    'accepts a webhook request signed by the standardwebhooks package with the %s secret',
    async (_n, secret) => {
      const { raw, key } = genericBody();
      expect(await post(raw, standardWebhookHeaders(raw, secret()), path)).toMatchObject({ status: 200, body: { accepted: 1 } });
      expect(await stored(key)).toEqual({ authenticated: true });
    },
  );

  it('accepts several space-separated signatures when one of them matches', async () => {
    const { raw, key } = genericBody();
    const headers = standardWebhookHeaders(raw, GENERIC.current);
    headers['webhook-signature'] = `v1,${randomBytes(32).toString('base64')} v1a,ignored ${headers['webhook-signature']}`;
    expect((await post(raw, headers, path)).status).toBe(200);
    expect(await stored(key)).toBeDefined();
  });

  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
  it.each([
    ['forged with another secret', (raw: string) => standardWebhookHeaders(raw, whsec()), 'webhook-signature does not match'],
    ['made over other bytes (re-serialized)', (raw: string) => standardWebhookHeaders(JSON.stringify(JSON.parse(raw), null, 1), GENERIC.current), 'webhook-signature does not match'],
    ['with a webhook-id other than the one signed', (raw: string) => ({ ...standardWebhookHeaders(raw, GENERIC.current), 'webhook-id': 'msg_other' }), 'webhook-signature does not match'],
    ['6 minutes old', (raw: string) => standardWebhookHeaders(raw, GENERIC.current, { at: minutesAgo(6) }), 'webhook-timestamp is outside'],
    ['6 minutes ahead', (raw: string) => standardWebhookHeaders(raw, GENERIC.current, { at: minutesAgo(-6) }), 'webhook-timestamp is outside'],
    ['with a timestamp that is not a number', (raw: string) => ({ ...standardWebhookHeaders(raw, GENERIC.current), 'webhook-timestamp': 'now' }), 'webhook-timestamp is malformed'],
    ['with no v1 signature', (raw: string) => ({ ...standardWebhookHeaders(raw, GENERIC.current), 'webhook-signature': 'v2,abc' }), 'webhook-signature is malformed'],
    ['without webhook-signature', (raw: string) => ({ ...standardWebhookHeaders(raw, GENERIC.current), 'webhook-signature': '' }), 'webhook-signature is missing'],
    ['missing altogether', () => ({}), 'webhook-id is missing'],
  ])('answers 401 to a webhook request %s, naming the header, and stores nothing', async (_name, headers, message) => {
    const { raw, key } = genericBody();
    const answer = await post(raw, headers(raw), path);
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain(message);
    expect(await stored(key)).toBeUndefined();
  });

  it('keys a body without an id by its webhook-id, stable across the sender’s retries', async () => {
    const raw = JSON.stringify({ event: 'message.received', type: 'text', text: { body: 'no id here' } });
    const id = `msg_${randomBytes(8).toString('hex')}`;
    const first = await post(raw, standardWebhookHeaders(raw, GENERIC.current, { id }), path);
    const retry = await post(raw, standardWebhookHeaders(raw, GENERIC.current, { id, at: minutesAgo(1) }), path);
    expect(first.body.events).toEqual([{ id: `generic:delivery:${id}`, result: 'accepted' }]);
    expect(retry.body.events).toEqual([{ id: `generic:delivery:${id}`, result: 'duplicate' }]);
  });
});

describe('per-source URLs take their own source only', () => {
  it('refuses a Meta-signed body on /webhook/generic (401: no Standard Webhooks signature)', async () => {
    const wamid = uniqueId();
    const raw = JSON.stringify(metaText(wamid));
    const answer = await post(raw, { 'x-hub-signature-256': metaSignature(raw, META.current) }, '/webhook/generic');
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain('webhook-id is missing');
    expect(await stored(`meta:msg:${wamid}`)).toBeUndefined();
  });

  it('answers 400 naming the right URL to a body of another shape, even when its signature is valid for the URL', async () => {
    const wamid = uniqueId();
    const raw = JSON.stringify(metaText(wamid));
    const answer = await post(raw, standardWebhookHeaders(raw, GENERIC.current), '/webhook/generic');
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('post it to /webhook/meta');
    const wasender = await post(raw, { 'x-webhook-signature': WASENDER.current }, '/webhook/wasender');
    expect(wasender.status).toBe(400);
    expect(await stored(`meta:msg:${wamid}`)).toBeUndefined();
  });

  it('answers 404 to a source it does not know', async () => {
    const answer = await post('{"id":"x"}', {}, '/webhook/telegram');
    expect(answer.status).toBe(404);
    expect(answer.body.message).toContain('meta, wasender, generic');
  });
});
