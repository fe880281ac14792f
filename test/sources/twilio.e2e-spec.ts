import { eventually } from '../support/eventually.js';
import { postForm, twilioFixture } from '../support/forms.js';
import { metaText } from '../support/payloads.js';
import { TEST_SECRETS, twilioHeaders } from '../support/signing.js';
import { postWebhook, startTestApp, useServiceWithDatabase } from '../support/test-app.js';

const SHARED_KEY = 'twilio-shared-key-for-tests-0001';
const ctx = useServiceWithDatabase({ WEBHOOK_PROVIDERS: 'meta,twilio', TWILIO_WEBHOOK_SHARED_KEY: SHARED_KEY, WORKER_ENABLED: 'true' });

const TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
const row = async (key: string) => (await ctx.db.query('SELECT * FROM messages WHERE message_id = $1', [key]))[0];
/** A fixture with a fresh sid, so tests do not share events. */
const fresh = (name: string, prefix = 'SM') => twilioFixture(name, { MessageSid: `${prefix}${Math.random().toString(16).slice(2).padEnd(32, '0')}`, SmsSid: '', SmsMessageSid: '' });
const post = async (path: string, fixture: { raw: string; params: Record<string, string> }, options: Parameters<typeof twilioHeaders>[2] = {}) =>
  postForm(ctx.service.baseUrl, path, fixture.raw, await twilioHeaders(path, fixture.params, options));

describe('Twilio WhatsApp at /webhook/twilio', () => {
  it('stores an inbound message signed over the public URL, answering an empty TwiML document', async () => {
    const message = fresh('inbound_text');
    const answer = await post('/webhook/twilio', message);
    expect(answer).toMatchObject({ status: 200, body: TWIML });
    expect(answer.contentType).toMatch(/^text\/xml/);
    expect(await row(`twilio:msg:${message.params.MessageSid}`)).toMatchObject({
      provider: 'twilio', kind: 'message', type: 'text', sender: '+14155550123', tenant: 'AC99128234bc06aae0824556adf8c6293f:+14155550100',
      authenticated: true, payload: expect.objectContaining({ Body: 'Hi! Is my order #1042 on its way?', NumMedia: '0' }),
    });
  });

  it('keeps media fields in the payload', async () => {
    const image = fresh('inbound_image', 'MM');
    expect((await post('/webhook/twilio', image)).status).toBe(200);
    const stored = await row(`twilio:msg:${image.params.MessageSid}`);
    expect(stored).toMatchObject({ type: 'image', payload: expect.objectContaining({ NumMedia: '1', MediaUrl0: image.params.MediaUrl0, MediaContentType0: 'image/jpeg' }) });
  });

  it('answers a redelivery with the same TwiML and counts it as a duplicate', async () => {
    const message = fresh('inbound_text');
    await Promise.all([post('/webhook/twilio', message), post('/webhook/twilio', message), post('/webhook/twilio', message)]);
    expect((await post('/webhook/twilio', message)).body).toBe(TWIML);
    expect(await row(`twilio:msg:${message.params.MessageSid}`)).toMatchObject({ duplicate_count: 3 });
  });

  it('signs the query string too, and takes the SHA-256 SharedKey variant', async () => {
    const message = fresh('inbound_text');
    expect((await post('/webhook/twilio?source=campaign', message)).status).toBe(200);
    const other = fresh('inbound_text');
    expect((await post('/webhook/twilio', other, { sharedKey: SHARED_KEY })).status).toBe(200);
    expect(await row(`twilio:msg:${other.params.MessageSid}`)).toMatchObject({ authenticated: true });
  });

  it.each([
    ['signed for another URL (the service’s own address instead of PUBLIC_BASE_URL)', async (m: ReturnType<typeof fresh>) =>
      postForm(ctx.service.baseUrl, '/webhook/twilio', m.raw, await twilioHeaders('/webhook/twilio', m.params, { baseUrl: ctx.service.baseUrl })), 'does not match'],
    ['signed without the query string Twilio called', async (m: ReturnType<typeof fresh>) =>
      postForm(ctx.service.baseUrl, '/webhook/twilio?x=1', m.raw, await twilioHeaders('/webhook/twilio', m.params)), 'does not match'],
    ['with a parameter added after signing', async (m: ReturnType<typeof fresh>) =>
      postForm(ctx.service.baseUrl, '/webhook/twilio', `${m.raw}&Body2=injected`, await twilioHeaders('/webhook/twilio', m.params)), 'does not match'],
    ['signed with another Auth Token', async (m: ReturnType<typeof fresh>) =>
      postForm(ctx.service.baseUrl, '/webhook/twilio', m.raw, await twilioHeaders('/webhook/twilio', m.params, { token: 'not-the-auth-token-000000' })), 'does not match'],
    ['SHA-256 with the SharedKey but without the settings header', async (m: ReturnType<typeof fresh>) => {
      const { 'x-twilio-signature': signature } = await twilioHeaders('/webhook/twilio', m.params, { sharedKey: SHARED_KEY });
      return postForm(ctx.service.baseUrl, '/webhook/twilio', m.raw, { 'x-twilio-signature': signature });
    }, 'does not match'],
    ['without a signature', async (m: ReturnType<typeof fresh>) => postForm(ctx.service.baseUrl, '/webhook/twilio', m.raw), 'is missing'],
  ])('answers 401 to a webhook request %s and stores nothing', async (_name, send, reason) => {
    const message = fresh('inbound_text');
    const answer = await send(message);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body).message).toContain(`X-Twilio-Signature ${reason}`);
    expect(answer.body).not.toContain(TEST_SECRETS.TWILIO_AUTH_TOKEN);
    expect(await row(`twilio:msg:${message.params.MessageSid}`)).toBeUndefined();
  });

  it('takes form bodies on this route only, and JSON everywhere else', async () => {
    const message = fresh('inbound_text');
    const json = await postWebhook<any>(ctx.service.baseUrl, message.params, await twilioHeaders('/webhook/twilio', message.params), { sign: false, path: '/webhook/twilio' });
    expect(json.status).toBe(400);
    expect(json.body.message).toBe('body is not application/x-www-form-urlencoded: send Content-Type application/x-www-form-urlencoded');
    for (const path of ['/webhook', '/webhook/meta']) {
      const form = await postForm(ctx.service.baseUrl, path, message.raw, await twilioHeaders(path, message.params));
      expect(form.status).toBe(400);
      expect(JSON.parse(form.body).message).toBe('body is not JSON: send Content-Type application/json');
    }
    const meta = await postWebhook<any>(ctx.service.baseUrl, metaText(), {}, { path: '/webhook/twilio' });
    expect(meta.status).toBe(400);
    expect(await row(`twilio:msg:${message.params.MessageSid}`)).toBeUndefined();
  });

  it('answers 400, not 500, to a form with no message sid', async () => {
    const params = { AccountSid: 'AC99128234bc06aae0824556adf8c6293f', Body: 'hi' };
    const answer = await postForm(ctx.service.baseUrl, '/webhook/twilio', new URLSearchParams(params).toString(), await twilioHeaders('/webhook/twilio', params));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).message).toContain('no event with an idempotency key');
  });

  it('moves the receipt only forward, whatever order and however often status callbacks arrive', async () => {
    const sid = `SM${Math.random().toString(16).slice(2).padEnd(32, '0')}`;
    const status = (name: string) => twilioFixture(name, { MessageSid: sid, SmsSid: sid });
    await post('/webhook/twilio', status('status_read'));
    await Promise.all(['status_delivered', 'status_sent', 'status_delivered', 'status_read', 'status_sent'].map((name) => post('/webhook/twilio', status(name))));
    const keys = (await ctx.db.query('SELECT message_id, duplicate_count FROM messages WHERE message_id LIKE $1 ORDER BY 1', [`twilio:status:${sid}:%`]));
    expect(keys.map((k) => k.message_id)).toEqual([`twilio:status:${sid}:delivered`, `twilio:status:${sid}:read`, `twilio:status:${sid}:sent`]);
    const record = await eventually(
      async () => (await fetch(`${ctx.service.baseUrl}/deliveries/${sid}?provider=twilio`)).json() as Promise<any>,
      (body) => body.status === 'read' && body.sentAt !== null && body.deliveredAt !== null,
    );
    expect(record).toMatchObject({ wamid: sid, provider: 'twilio', status: 'read', recipient: '+14155550123' });
    await post('/webhook/twilio', status('status_undelivered'));
    const failed = await eventually(
      async () => (await fetch(`${ctx.service.baseUrl}/deliveries/${sid}?provider=twilio`)).json() as Promise<any>,
      (body) => body.status === 'failed',
    );
    expect(failed.error).toMatch(/^63024/);
  });

  describe('a signed request re-sent with parameters repeated', () => {
    /** A status callback as Twilio signs it, and the same bytes with the statuses appended again (same signature). */
    const tampered = async (append: string) => {
      const sid = `SM${Math.random().toString(16).slice(2).padEnd(32, '0')}`;
      const callback = twilioFixture('status_delivered', { MessageSid: sid, SmsSid: sid });
      const headers = await twilioHeaders('/webhook/twilio', callback.params);
      return { sid, callback, headers, send: () => postForm(ctx.service.baseUrl, '/webhook/twilio', `${callback.raw}${append}`, headers) };
    };
    const stored = async (sid: string) => (await ctx.db.query('SELECT message_id FROM messages WHERE message_id LIKE $1 ORDER BY 1', [`twilio:%:${sid}%`])).map((r) => r.message_id);

    it('answers 400 naming the parameter to a delivered callback replayed with its statuses repeated, and is not read as an inbound message', async () => {
      const { sid, callback, headers, send } = await tampered('&MessageStatus=delivered&SmsStatus=delivered');
      expect((await postForm(ctx.service.baseUrl, '/webhook/twilio', callback.raw, headers)).status).toBe(200);
      const answer = await send();
      expect(await stored(sid)).toEqual([`twilio:status:${sid}:delivered`]);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).message).toBe('MessageStatus is repeated: Twilio sends it once');
    });

    it('answers 400 to the same callback re-split so that its statuses vanish (same signature), not an inbound message', async () => {
      const { sid, callback, headers } = await tampered('');
      const { MessageStatus, SmsStatus, ...rest } = callback.params;
      const resplit = new URLSearchParams({ ...rest, MessageStatusd: MessageStatus!.slice(1), SmsStatusd: SmsStatus!.slice(1) }).toString();
      const answer = await postForm(ctx.service.baseUrl, '/webhook/twilio', resplit, headers);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).message).toBe('a parameter is named like MessageStatus but is not it');
      expect(await stored(sid)).toEqual([]);
    });

    it.each(['MessageSid', 'SmsSid', 'AccountSid', 'From', 'To'])('answers 400 to a repeated %s, even with the same value, before the signature is checked', async (name) => {
      const { sid, callback, send } = await tampered('');
      // A signature header that matches nothing: present (a request without one is refused from its
      // headers alone), so the 400 shows the repetition is judged before any HMAC is computed.
      const repeated = await postForm(ctx.service.baseUrl, '/webhook/twilio', `${callback.raw}&${new URLSearchParams({ [name]: callback.params[name] })}`, {
        'x-twilio-signature': 'bm90IHRoZSBzaWduYXR1cmU=',
      });
      expect(repeated.status).toBe(400);
      expect(JSON.parse(repeated.body).message).toBe(`${name} is repeated: Twilio sends it once`);
      expect((await send()).status).toBe(200);
      expect(await stored(sid)).toEqual([`twilio:status:${sid}:delivered`]);
    });
  });

  it('refuses to start with a Twilio credential but no PUBLIC_BASE_URL, saying why', async () => {
    await expect(startTestApp({ DATABASE_URL: ctx.db.url, WEBHOOK_PROVIDERS: 'twilio', PUBLIC_BASE_URL: undefined })).rejects.toThrow(
      'webhook source twilio needs PUBLIC_BASE_URL',
    );
  });
});
