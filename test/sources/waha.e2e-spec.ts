import { randomUUID } from 'node:crypto';
import { eventually } from '../support/eventually.js';
import { fixture } from '../support/payloads.js';
import { hmacHex, TEST_SECRETS } from '../support/signing.js';
import { postWebhook, useServiceWithDatabase } from '../support/test-app.js';

const ctx = useServiceWithDatabase({ WEBHOOK_PROVIDERS: 'meta,waha', WORKER_ENABLED: 'true' });

const row = async (key: string) => (await ctx.db.query('SELECT * FROM messages WHERE message_id = $1', [key]))[0];
/** A WAHA envelope from a fixture, in its own session, about message `id` (the WhatsApp message id part). */
function envelope(name: string, session: string, id?: string) {
  const body = fixture(`waha/${name}`);
  body.session = session;
  body.id = `evt_${randomUUID()}`;
  if (id !== undefined) body.payload.id = body.payload.id.replace(/_[A-Z0-9]+$/, `_${id}`);
  return body;
}
const signed = (raw: string, key = TEST_SECRETS.WAHA_WEBHOOK_HMAC_KEY) => ({ 'x-webhook-hmac': hmacHex('sha512', key, raw), 'x-webhook-hmac-algorithm': 'sha512' });
const post = (body: unknown, headers?: Record<string, string>, path = '/webhook/waha') => {
  const raw = JSON.stringify(body);
  return postWebhook<any>(ctx.service.baseUrl, raw, headers ?? signed(raw), { sign: false, path });
};
const session = () => `s${randomUUID().slice(0, 8)}`;
const messageId = () => randomUUID().replace(/-/g, '').toUpperCase();

describe('WAHA at /webhook/waha', () => {
  it('keys message and message.any of one WhatsApp message alike: the second is a duplicate', async () => {
    const s = session();
    const id = messageId();
    const first = await post(envelope('message_text', s, id));
    const second = await post(envelope('message_any_text', s, id));
    const key = `waha:${s}:msg:false_22222222222@c.us_${id}`;
    expect(first.body).toMatchObject({ accepted: 1, events: [{ id: key }] });
    expect(second.body).toMatchObject({ accepted: 0, duplicates: 1, events: [{ id: key, result: 'duplicate' }] });
    expect(await row(key)).toMatchObject({ provider: 'waha', tenant: s, sender: '22222222222', from_me: false, authenticated: true, duplicate_count: 1 });
  });

  it('keeps fromMe, and keys the same message id of two sessions apart', async () => {
    const id = messageId();
    const [a, b] = [session(), session()];
    expect((await post(envelope('message_from_me', a, id))).body.accepted).toBe(1);
    expect((await post(envelope('message_from_me', b, id))).body.accepted).toBe(1);
    const stored = await ctx.db.query('SELECT tenant, from_me FROM messages WHERE message_id LIKE $1 ORDER BY tenant', [`waha:%:msg:%${id}`]);
    expect(stored).toEqual([{ tenant: [a, b].sort()[0], from_me: true }, { tenant: [a, b].sort()[1], from_me: true }]);
  });

  it('is detected by its shape on POST /webhook and verified with its own key', async () => {
    const s = session();
    const body = envelope('message_text', s, messageId());
    expect((await post(body, undefined, '/webhook')).body.accepted).toBe(1);
  });

  it.each([
    ['forged with another key', (raw: string) => signed(raw, 'not-the-waha-key'), 'does not match'],
    ['computed over the re-serialized body', (raw: string) => signed(JSON.stringify(JSON.parse(raw), null, 2)), 'does not match'],
    ['missing', () => ({}), 'is missing'],
    ['made with another algorithm', (raw: string) => ({ 'x-webhook-hmac': hmacHex('sha256', TEST_SECRETS.WAHA_WEBHOOK_HMAC_KEY, raw), 'x-webhook-hmac-algorithm': 'sha256' }), 'is malformed'],
  ])('answers 401 to an HMAC %s and stores nothing', async (_name, headers, reason) => {
    const s = session();
    const body = envelope('message_text', s, messageId());
    const raw = JSON.stringify(body);
    const answer = await postWebhook<any>(ctx.service.baseUrl, raw, headers(raw), { sign: false, path: '/webhook/waha' });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain(`X-Webhook-Hmac ${reason}`);
    expect(await ctx.db.query('SELECT 1 FROM messages WHERE tenant = $1', [s])).toEqual([]);
  });

  it('keys acks per level and moves the receipt only forward, whatever the order', async () => {
    const s = session();
    const id = messageId();
    const ack = (name: string) => envelope(name, s, id);
    await post(ack('message_ack_read'));
    await Promise.all(['message_ack_delivered', 'message_ack_sent', 'message_ack_delivered', 'message_ack_read'].map((name) => post(ack(name))));
    const keys = await ctx.db.query('SELECT message_id FROM messages WHERE tenant = $1 ORDER BY 1', [s]);
    const wamid = `true_22222222222@c.us_${id}`;
    expect(keys.map((k) => k.message_id)).toEqual([1, 2, 3].map((level) => `waha:${s}:ack:${wamid}:${level}`));
    const record = await eventually(
      async () => (await fetch(`${ctx.service.baseUrl}/deliveries/${encodeURIComponent(wamid)}?provider=waha`)).json() as Promise<any>,
      (body) => body.status === 'read' && body.sentAt !== null && body.deliveredAt !== null,
    );
    expect(record).toMatchObject({ provider: 'waha', status: 'read', recipient: '22222222222' });
  });

  it('keys other events by content: the same envelope twice is one event, a later one is another', async () => {
    const s = session();
    const status = envelope('session_status', s);
    expect((await post(status)).body.accepted).toBe(1);
    expect((await post(status)).body.duplicates).toBe(1);
    expect((await post({ ...status, id: `evt_${randomUUID()}`, timestamp: status.timestamp + 60_000 })).body.accepted).toBe(1);
    const stored = await ctx.db.query('SELECT kind, type FROM messages WHERE tenant = $1', [s]);
    expect(stored).toEqual([{ kind: 'other', type: 'session.status' }, { kind: 'other', type: 'session.status' }]);
  });
});
