import { randomUUID } from 'node:crypto';
import { fixture, metaText, uniqueId } from './support/payloads.js';
import { postWebhook, useServiceWithDatabase } from './support/test-app.js';

// Tenants (the business number an event belongs to) and business-scoped user ids, over HTTP.
const ctx = useServiceWithDatabase({ WEBHOOK_PROVIDERS: 'meta,wasender,generic,360dialog', WASENDER_TENANT: 'wasender-line-1' });
const get = async (path: string) => {
  const res = await fetch(`${ctx.service.baseUrl}${path}`);
  return { status: res.status, body: (await res.json()) as any };
};

/** An inbound Meta text to business number `phoneNumberId`; `from`/`from_user_id` as given (absent when undefined). */
function inbound(phoneNumberId: string, sender: { from?: string; userId?: string }) {
  const wamid = uniqueId();
  const payload = metaText(wamid);
  const value = payload.entry[0].changes[0].value;
  value.metadata.phone_number_id = phoneNumberId;
  const message = value.messages[0];
  delete message.from;
  if (sender.from !== undefined) message.from = sender.from;
  if (sender.userId !== undefined) message.from_user_id = sender.userId;
  value.contacts = [{ profile: { name: 'Ana' }, ...(sender.from ? { wa_id: sender.from } : {}), ...(sender.userId ? { user_id: sender.userId } : {}) }];
  return { payload, wamid };
}

const tenantA = `1065${randomUUID().replace(/\D/g, '').slice(0, 10)}`;
const tenantB = `2065${randomUUID().replace(/\D/g, '').slice(0, 10)}`;

describe('tenants', () => {
  const keysA: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 3; i++) {
      const { payload, wamid } = inbound(tenantA, { from: '16505550001' });
      expect((await postWebhook(ctx.service.baseUrl, payload)).status).toBe(200);
      keysA.push(`meta:msg:${wamid}`);
    }
    const { payload, wamid } = inbound(tenantA, { from: '16505550002' });
    await postWebhook(ctx.service.baseUrl, payload, {}, { path: '/webhook/360dialog' });
    keysA.push(`360dialog:msg:${wamid}`);
    await postWebhook(ctx.service.baseUrl, inbound(tenantB, { from: '16505550003' }).payload);
    await postWebhook(ctx.service.baseUrl, { event: 'message', id: uniqueId('g'), from: '4915100000009', tenant: tenantB });
  });

  it('are stored from metadata.phone_number_id, shown in the API and filter GET /messages across sources', async () => {
    const { status, body } = await get(`/messages?tenant=${tenantA}`);
    expect(status).toBe(200);
    expect(body.items.map((i: { id: string }) => i.id).sort()).toEqual([...keysA].sort());
    expect(new Set(body.items.map((i: { tenant: string }) => i.tenant))).toEqual(new Set([tenantA]));
    const detail = await get(`/messages/${encodeURIComponent(keysA[0])}`);
    expect(detail.body).toMatchObject({ tenant: tenantA, from: '16505550001', fromUserId: null });
  });

  it('filter /messages/stats', async () => {
    const a = await get(`/messages/stats?tenant=${tenantA}`);
    expect(a.body).toMatchObject({ total: 4, byProvider: { meta: 3, '360dialog': 1, generic: 0 } });
    const b = await get(`/messages/stats?tenant=${tenantB}`);
    expect(b.body).toMatchObject({ total: 2, byProvider: { meta: 1, generic: 1 } });
    const all = await get('/messages/stats');
    expect(all.body.total).toBeGreaterThanOrEqual(6);
  });

  it('come from WASENDER_TENANT for WASender, whose body names no business number', async () => {
    const payload = fixture('wasender_messages_received');
    payload.data.messages.key.id = uniqueId('3EB0');
    expect((await postWebhook(ctx.service.baseUrl, payload, {}, { path: '/webhook/wasender' })).status).toBe(200);
    const { body } = await get(`/messages/${encodeURIComponent(`wasender:msg:${payload.data.messages.key.id}`)}`);
    expect(body.tenant).toBe('wasender-line-1');
  });

  it('refuse an over-long tenant filter with a 400 naming the parameter', async () => {
    const { status, body } = await get(`/messages?tenant=${'x'.repeat(129)}`);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('tenant');
  });
});

describe('business-scoped user ids (Meta usernames)', () => {
  const bsuid = `US.${randomUUID().replace(/\D/g, '')}`;
  let onlyUserId: string;
  let both: string;
  beforeAll(async () => {
    const a = inbound(tenantA, { userId: bsuid });
    const b = inbound(tenantA, { from: '16505550077', userId: bsuid });
    await postWebhook(ctx.service.baseUrl, a.payload);
    await postWebhook(ctx.service.baseUrl, b.payload);
    onlyUserId = `meta:msg:${a.wamid}`;
    both = `meta:msg:${b.wamid}`;
  });

  it('stores the BSUID as the other party when the phone number is withheld, and both when both are given; the key stays the wamid', async () => {
    expect((await get(`/messages/${encodeURIComponent(onlyUserId)}`)).body).toMatchObject({ from: bsuid, fromUserId: bsuid });
    expect((await get(`/messages/${encodeURIComponent(both)}`)).body).toMatchObject({ from: '16505550077', fromUserId: bsuid });
  });

  it('lets from= match either the phone number or the BSUID', async () => {
    const byUserId = await get(`/messages?from=${encodeURIComponent(bsuid)}`);
    expect(byUserId.body.items.map((i: { id: string }) => i.id).sort()).toEqual([onlyUserId, both].sort());
    const byPhone = await get('/messages?from=16505550077');
    expect(byPhone.body.items.map((i: { id: string }) => i.id)).toEqual([both]);
  });

  it('keys a redelivery without the phone number as the same event', async () => {
    const again = metaText(both.slice('meta:msg:'.length));
    const value = again.entry[0].changes[0].value;
    delete value.messages[0].from;
    value.messages[0].from_user_id = bsuid;
    const { body } = await postWebhook(ctx.service.baseUrl, again);
    expect(body).toMatchObject({ accepted: 0, duplicates: 1 });
  });
});
