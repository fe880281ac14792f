import { connect } from 'node:net';
import { fixture, metaText, uniqueId } from './support/payloads.js';
import { signedForEverySource } from './support/signing.js';
import { postWebhook, startTestApp, useServiceWithDatabase } from './support/test-app.js';

// Two tokens: the handshake takes either (rotation).
const ctx = useServiceWithDatabase({ WHATSAPP_VERIFY_TOKEN: 'verify-me,verify-me-too' });

const countRows = async () => (await ctx.db.query('SELECT count(*)::int AS n FROM messages'))[0].n as number;

describe.each(['/webhook', '/webhook/meta'])('GET %s (Meta verification)', (path) => {
  const verify = (query: string) => fetch(`${ctx.service.baseUrl}${path}?${query}`);

  it.each(['verify-me', 'verify-me-too'])('echoes exactly the challenge as plain text when the token is %s', async (token) => {
    const res = await verify(`hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('1158201444');
  });

  it.each([
    ['a wrong token', 'hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1'],
    ['a missing token', 'hub.mode=subscribe&hub.challenge=1'],
    ['another mode', 'hub.mode=unsubscribe&hub.verify_token=verify-me&hub.challenge=1'],
  ])('answers 403 to %s', async (_name, query) => {
    const res = await verify(query);
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain('verify-me');
  });
});

describe('GET /webhook/meta with the meta source disabled', () => {
  it('answers 403 naming WEBHOOK_PROVIDERS, whatever the token', async () => {
    const app = await startTestApp({ DATABASE_URL: ctx.db.url, WEBHOOK_PROVIDERS: 'wasender', WHATSAPP_VERIFY_TOKEN: 'verify-me' });
    try {
      const res = await fetch(`${app.baseUrl}/webhook/meta?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=1`);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toContain('WEBHOOK_PROVIDERS=wasender');
    } finally {
      await app.close();
    }
  });
});

describe('POST /webhook', () => {
  it.each([
    ['meta_inbound_text', ['meta:msg:wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQTAwMDAwMDAwMDAwMDAwMDAwMQA=']],
    ['meta_inbound_image', ['meta:msg:wamid.HBgLMTY1MDU1NTEyMzQVAgASGBQzQTAwMDAwMDAwMDAwMDAwMDAwMgA=']],
    ['meta_status_delivered', ['meta:status:wamid.HBgLMTY1MDU1NTEyMzQVAgARGBIwMDAwMDAwMDAwMDAwMDAwMDIA:delivered']],
    ['wasender_messages_received', ['wasender:msg:3EB0A1B2C3D4E5F6A7B8']],
    ['wasender_messages_update_status', ['wasender:status:3EB0F0E1D2C3B4A59687:delivered']],
  ])('answers exactly 200 with the claim of each event of %s, then duplicate', async (name, keys) => {
    const first = await postWebhook(ctx.service.baseUrl, fixture(name));
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ accepted: keys.length, duplicates: 0, stale: 0, events: keys.map((id) => ({ id, result: 'accepted' })) });
    const again = await postWebhook(ctx.service.baseUrl, fixture(name));
    expect(again.body).toEqual({ accepted: 0, duplicates: keys.length, stale: 0, events: keys.map((id) => ({ id, result: 'duplicate' })) });
  });

  it('claims every message and status of a batched Meta webhook request', async () => {
    const answer = await postWebhook(ctx.service.baseUrl, fixture('meta_batched_2msgs_1status'));
    expect(answer.status).toBe(200);
    // Its status repeats meta_status_delivered's (same wamid and status), claimed above if that ran first.
    expect(answer.body.events).toHaveLength(3);
    expect(answer.body.accepted + answer.body.duplicates).toBe(3);
    const rows = await ctx.db.query('SELECT kind, type FROM messages WHERE message_id = ANY($1) ORDER BY kind, type', [answer.body.events.map((e) => e.id)]);
    expect(rows).toEqual([{ kind: 'message', type: 'text' }, { kind: 'message', type: 'text' }, { kind: 'status', type: 'delivered' }]);
  });

  it('stores WASender events without the session key, and keeps fromMe', async () => {
    const payload = fixture('wasender_messages_update_status');
    payload.data.key.id = uniqueId('3EB0');
    await postWebhook(ctx.service.baseUrl, payload);
    const [row] = await ctx.db.query('SELECT payload FROM messages WHERE message_id = $1', [`wasender:status:${payload.data.key.id}:delivered`]);
    expect(JSON.stringify(row.payload)).not.toContain('SESSION_API_KEY');
    expect(JSON.stringify(row.payload)).toContain('"fromMe":true');
  });

  it('accepts the generic flat shape', async () => {
    const id = uniqueId('msg');
    const answer = await postWebhook(ctx.service.baseUrl, { event: 'message.received', id, timestamp: 1750031000, from: '15550001111', type: 'text', text: { body: 'hi' } });
    expect(answer).toEqual({ status: 200, body: { accepted: 1, duplicates: 0, stale: 0, events: [{ id: `generic:msg:${id}`, result: 'accepted' }] } });
  });

  it.each([
    ['malformed JSON', '{"object": "whatsapp_business_account", ', 'application/json'],
    ['a JSON array', '[{"id": "x"}]', 'application/json'],
    // Meta's envelope with nothing in it: no change to store (Meta never sends one).
    ['a Meta body without messages or changes', '{"object": "whatsapp_business_account", "entry": []}', 'application/json'],
    ['a form-encoded body', 'id=abc&from=123', 'application/x-www-form-urlencoded'],
    ['a plain-text body', 'id abc', 'text/plain'],
  ])('answers 400 with a JSON reason to %s, and stores nothing', async (_name, body, contentType) => {
    const before = await countRows();
    // Signed for every source: the content, not the signature, is what is wrong.
    const res = await fetch(`${ctx.service.baseUrl}/webhook`, { method: 'POST', headers: { ...signedForEverySource(body), 'content-type': contentType }, body });
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { message: string };
    expect(answer).toMatchObject({ statusCode: 400, message: expect.any(String) });
    expect(answer.message.length).toBeGreaterThan(5);
    expect(await countRows()).toBe(before);
  });

  it('reads a WASender receipt that names its stage by status as that receipt', async () => {
    const id = uniqueId('3EB0');
    const payload = {
      event: 'message-receipt.update', sessionId: 'SESSION_API_KEY_PLACEHOLDER_DO_NOT_LOG', timestamp: 1750031010,
      data: [{ key: { id, fromMe: true, remoteJid: '120363000000000000@g.us' }, receipt: { userJid: '16505551234@s.whatsapp.net', status: 'read', t: 1750031000 } }],
    };
    const answer = await postWebhook(ctx.service.baseUrl, payload);
    const key = `wasender:receipt:${id}:read:16505551234@s.whatsapp.net`;
    expect(answer).toEqual({ status: 200, body: { accepted: 1, duplicates: 0, stale: 0, events: [{ id: key, result: 'accepted' }] } });
    const rows = await ctx.db.query('SELECT kind, type, sender, provider_timestamp FROM messages WHERE message_id = $1', [key]);
    expect(rows).toEqual([{ kind: 'status', type: 'read', sender: '16505551234', provider_timestamp: new Date(1750031000_000) }]);
  });

  // Refused with 400, a source's own webhook request would be retried for days (Meta: 7).
  it.each([
    ['a WASender update without a status it knows', (id: string) => ({
      event: 'messages.update', sessionId: 'SESSION_API_KEY_PLACEHOLDER_DO_NOT_LOG', timestamp: 1750031010123,
      data: { key: { id, fromMe: true, remoteJid: '16505551234@s.whatsapp.net' }, update: { pollUpdates: [] } },
    }), 'wasender', 'messages.update'],
    ['a WASender body without any message', (id: string) => ({ event: 'messages.received', data: { note: id } }), 'wasender', 'messages.received'],
    ['a Meta change whose messages have no id', (id: string) => ({
      object: 'whatsapp_business_account', entry: [{ id: 'WABA', changes: [{ field: 'messages', value: { messages: [{ from: '16505551234', type: 'text', text: { body: id } }] } }] }],
    }), 'meta', 'messages'],
  ])('answers 200 to %s: one other event keyed by its content, stored, counted, a duplicate when redelivered', async (_name, build, provider, type) => {
    const payload = build(uniqueId());
    const counted = async () => {
      const text = await (await fetch(`${ctx.service.baseUrl}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`wdd_events_total{provider="${provider}",kind="other",result="accepted"}`));
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const before = await counted();

    const first = await postWebhook(ctx.service.baseUrl, payload);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ accepted: 1, duplicates: 0, events: [{ id: expect.stringMatching(new RegExp(`^${provider}:other:[0-9a-f]{64}$`)), result: 'accepted' }] });
    const key = first.body.events[0]!.id;
    const [row] = await ctx.db.query('SELECT provider::text, kind::text, type, payload FROM messages WHERE message_id = $1', [key]);
    expect(row).toMatchObject({ provider, kind: 'other', type });
    expect(JSON.stringify(row.payload)).not.toContain('SESSION_API_KEY');
    expect(await counted()).toBe(before + 1);

    const again = await postWebhook(ctx.service.baseUrl, payload);
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 1, events: [{ id: key, result: 'duplicate' }] });
  });

  it("admits a body of Meta's documented 3 MB maximum", async () => {
    const wamid = uniqueId();
    const payload = metaText(wamid, 'x'.repeat(3 * 1024 * 1024 - 1000));
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(3 * 1024 * 1024);
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeGreaterThan(3 * 1024 * 1024 - 1000);
    const answer = await postWebhook(ctx.service.baseUrl, payload);
    expect(answer.status).toBe(200);
    expect(answer.body.accepted).toBe(1);
  });

  it('answers 413 above the body limit, with the reason, whether the length is announced or streamed', async () => {
    const answer = await postWebhook(ctx.service.baseUrl, metaText(uniqueId(), 'x'.repeat(5 * 1024 * 1024)));
    expect(answer).toMatchObject({ status: 413, body: { statusCode: 413, message: expect.stringContaining('WEBHOOK_BODY_LIMIT') } });
    const chunks = (async function* () {
      for (let i = 0; i < 6; i++) yield Buffer.alloc(1024 * 1024, 0x20);
    })();
    const streamed = await fetch(`${ctx.service.baseUrl}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ReadableStream.from(chunks), duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it.each([
    ['a charset other than UTF-8', { 'content-type': 'application/json; charset=latin1' }, /charset latin1/],
    ['a compressed body', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, /content-encoding gzip/],
  ])('answers 415 with the reason to %s, and stores nothing', async (_name, headers, reason) => {
    const before = await countRows();
    const body = JSON.stringify(metaText(uniqueId(), 'hi'));
    const res = await fetch(`${ctx.service.baseUrl}/webhook`, { method: 'POST', headers: { ...signedForEverySource(body), ...headers }, body });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toMatch(reason);
    expect(await countRows()).toBe(before);
  });

  it('takes application/*+json, and answers with the request id, no ETag, and JSON', async () => {
    const body = JSON.stringify(metaText(uniqueId(), 'hi'));
    const res = await fetch(`${ctx.service.baseUrl}/webhook/meta/?via=test`, { method: 'POST', headers: { ...signedForEverySource(body), 'content-type': 'application/vnd.meta+json', 'x-request-id': 'req-7' }, body });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toBe('req-7');
    expect(res.headers.get('etag')).toBeNull();
    expect(((await res.json()) as { accepted: number }).accepted).toBe(1);
  });

  it('stores nothing from an upload the caller abandons, and goes on answering', async () => {
    const before = await countRows();
    const { port } = new URL(ctx.service.baseUrl);
    const body = JSON.stringify(metaText(uniqueId(), 'never finished'));
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 100}\r\n\r\n${body}`);
        setImmediate(() => socket.destroy());
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const next = await postWebhook(ctx.service.baseUrl, metaText(uniqueId(), 'after the abandoned one'));
    expect(next).toMatchObject({ status: 200, body: { accepted: 1 } });
    expect(await countRows()).toBe(before + 1);
  });

  it('leaves other methods and paths to the application router', async () => {
    expect((await fetch(`${ctx.service.baseUrl}/webhook/meta/extra`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${ctx.service.baseUrl}/webhook`, { method: 'PUT' })).status).toBe(404);
    expect((await fetch(`${ctx.service.baseUrl}/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`)).status).toBe(403);
  });
});
