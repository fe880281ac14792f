import { randomUUID } from 'node:crypto';
import { startDownstream, type Downstream } from './support/downstream.js';
import { eventually } from './support/eventually.js';
import { postWebhook, startTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';
import { TEST_SECRETS } from './support/signing.js';

const MARKER = '[redacted: WhatsApp pairing material]';
/** Pairing material as the gateways document it: a QR string, its PNG and an 8-character pairing code. */
const secrets = () => {
  const tag = randomUUID().replace(/-/g, '');
  return { qr: `2@QRSECRET${tag},AbCdEf==,GhIjKl==`, image: `data:image/png;base64,iVBORw0KGgoPNGSECRET${tag}`, code: `PC${tag.slice(0, 6).toUpperCase()}` };
};

/**
 * Issue 20, point 8: pairing events are stored and forwarded as having happened, without their
 * QR code or pairing code; and a Meta message naming its sender only by its contact's user_id
 * has that sender. Over HTTP, against PostgreSQL, with the worker forwarding to a real server.
 */
describe('pairing material and Meta senders', () => {
  let db: TestDatabase;
  let service: TestApp;
  let downstream: Downstream;

  beforeAll(async () => {
    downstream = await startDownstream();
    db = await createTestDatabase();
    service = await startTestApp({ DATABASE_URL: db.url, WEBHOOK_PROVIDERS: 'meta,evolution,wasender,waha', FORWARD_URL: downstream.url, WORKER_ENABLED: 'true' });
  });
  afterAll(async () => {
    await service?.close();
    await db?.drop();
    await downstream?.close();
  });

  /** Posts a signed body, then reads what is stored, what GET /messages/{id} shows and what was forwarded. */
  async function send(path: string, body: unknown) {
    const answer = await postWebhook(service.baseUrl, body, {}, { path });
    expect(answer.status).toBe(200);
    const key = answer.body.events[0]!.id;
    const [row] = await db.query('SELECT type, payload FROM messages WHERE message_id = $1', [key]);
    const api = await (await fetch(`${service.baseUrl}/messages/${encodeURIComponent(key)}`)).text();
    const [forwarded] = await eventually(async () => downstream.byKey(key), (received) => received.length > 0);
    return { row, api, forwarded: forwarded!.body };
  }

  const expectNone = (texts: string[], material: ReturnType<typeof secrets>) => {
    for (const text of texts) {
      expect(text).toContain(MARKER.replace(/[[\]]/g, ''));
      for (const secret of Object.values(material)) expect(text).not.toContain(secret);
    }
  };

  it("stores and forwards Evolution's qrcode.updated without its QR or pairing code", async () => {
    const material = secrets();
    const body = { event: 'qrcode.updated', instance: 'sales', date_time: new Date().toISOString(), apikey: TEST_SECRETS.EVOLUTION_API_KEY, data: { qrcode: { instance: 'sales', pairingCode: material.code, code: material.qr, base64: material.image } } };
    const { row, api, forwarded } = await send('/webhook/evolution', body);
    expect(row).toMatchObject({ type: 'qrcode.updated', payload: { event: 'qrcode.updated', data: { qrcode: MARKER } } });
    expectNone([JSON.stringify(row.payload), api, forwarded], material);
  });

  it("stores and forwards WASender's qrcode.updated without its QR", async () => {
    const material = secrets();
    const { row, api, forwarded } = await send('/webhook/wasender', { event: 'qrcode.updated', sessionId: 'SESSION-KEY', timestamp: Date.now(), data: { qr: material.qr } });
    expect(row).toMatchObject({ type: 'qrcode.updated', payload: { data: { qr: MARKER } } });
    expectNone([JSON.stringify(row.payload), api, forwarded], { qr: material.qr } as ReturnType<typeof secrets>);
  });

  it('stores and forwards a WAHA session.status that carries a QR without it', async () => {
    const material = secrets();
    const body = { id: `evt_${randomUUID()}`, timestamp: Date.now(), event: 'session.status', session: 'default', payload: { name: 'default', status: 'SCAN_QR_CODE', qr: material.qr } };
    const { row, api, forwarded } = await send('/webhook/waha', body);
    expect(row).toMatchObject({ type: 'session.status', payload: { payload: { status: 'SCAN_QR_CODE', qr: MARKER } } });
    expectNone([JSON.stringify(row.payload), api, forwarded], { qr: material.qr } as ReturnType<typeof secrets>);
  });

  it("stores a Meta message that names neither from nor from_user_id as from its only contact's user_id", async () => {
    const wamid = `wamid.${randomUUID()}`;
    const body = {
      object: 'whatsapp_business_account',
      entry: [{ id: 'WABA', changes: [{ field: 'messages', value: {
        messaging_product: 'whatsapp', metadata: { display_phone_number: '15550001111', phone_number_id: '106540352242922' },
        contacts: [{ profile: { username: 'ana' }, user_id: 'US.13491208655302741918' }],
        messages: [{ id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'hi' } }],
      } }] }],
    };
    expect((await postWebhook(service.baseUrl, body, {}, { path: '/webhook/meta' })).status).toBe(200);
    const [row] = await db.query('SELECT sender, user_id FROM messages WHERE message_id = $1', [`meta:msg:${wamid}`]);
    expect(row).toEqual({ sender: 'US.13491208655302741918', user_id: 'US.13491208655302741918' });
    const detail = await (await fetch(`${service.baseUrl}/messages/${encodeURIComponent(`meta:msg:${wamid}`)}`)).json();
    expect(detail).toMatchObject({ from: 'US.13491208655302741918', fromUserId: 'US.13491208655302741918' });
  });
});
