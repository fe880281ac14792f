import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './support/eventually.js';
import { postForm, twilioFixture } from './support/forms.js';
import { fixture, metaText, uniqueId } from './support/payloads.js';
import { hmacHex, metaSignature, twilioHeaders } from './support/signing.js';
import { startServiceProcess } from './support/service-process.js';
import { postWebhook, startTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

// Issue 20, point 2: one tenant's credential authenticates only that tenant (TENANTS_FILE).
const KEY_A = 'TENANT-A-EVOLUTION-KEY-000000001';
const KEY_B = 'TENANT-B-EVOLUTION-KEY-000000002';
const WAHA_A = 'waha-hmac-key-of-tenant-a';
const WAHA_B = 'waha-hmac-key-of-tenant-b';
const TWILIO_A = { account: `AC${'a'.repeat(32)}`, token: 'twilio-auth-token-of-account-a' };
const TWILIO_B = `AC${'b'.repeat(32)}`;
const META_SECRET_A = 'meta-app-secret-of-tenant-a';
const WASENDER_A = 'wasender-secret-of-line-a';
const ENV = {
  WEBHOOK_PROVIDERS: 'evolution,waha,twilio,meta,wasender',
  WAHA_WEBHOOK_HMAC_KEY: undefined,
  EVOLUTION_API_KEY: undefined,
  TWILIO_AUTH_TOKEN: undefined,
  WHATSAPP_APP_SECRET: undefined,
  WASENDER_WEBHOOK_SECRET: undefined,
};

/** An Evolution body of fixture `name` for `instance`, about message `id`, carrying `key` as its apikey. */
function evolution(name: string, instance: string, id: string, key: string, status?: string) {
  const body = fixture(`evolution/${name}`);
  body.instance = instance;
  body.apikey = key;
  if (body.data.keyId !== undefined) body.data.keyId = id;
  if (body.data.key !== undefined) body.data.key.id = id;
  if (status !== undefined) body.data.status = status;
  return body;
}
const postEvolution = (app: { baseUrl: string }, body: unknown) => postWebhook(app.baseUrl, body, {}, { sign: false, path: '/webhook/evolution' });

function postWaha(app: TestApp, session: string, key: string) {
  const body = fixture('waha/message_text');
  body.session = session;
  body.payload.id = `false_11111111111@c.us_${uniqueId('WAHA')}`;
  const raw = JSON.stringify(body);
  const headers = { 'x-webhook-hmac': hmacHex('sha512', key, raw), 'x-webhook-hmac-algorithm': 'sha512' };
  return postWebhook(app.baseUrl, raw, headers, { sign: false, path: '/webhook/waha' });
}

function tenantsFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'tenants-')), 'tenants.yaml');
  writeFileSync(path, text);
  return path;
}

const record = async (app: TestApp, id: string, query = '') => {
  const res = await fetch(`${app.baseUrl}/deliveries/${id}?provider=evolution${query}`);
  return { status: res.status, body: (await res.json()) as any };
};

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

describe('with environment credentials only (EVOLUTION_API_KEY=keyA,keyB): each key means any tenant', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ ...ENV, DATABASE_URL: db.url, WORKER_ENABLED: 'true', EVOLUTION_API_KEY: `${KEY_A},${KEY_B}` });
  });
  afterAll(() => app?.close());

  it("lets tenant A's key fail tenant B's receipt and store an event as B's (the reported attack)", async () => {
    const id = uniqueId('3EB0');
    expect((await postEvolution(app, evolution('messages_update_server_ack', 'envB', id, KEY_B))).status).toBe(200);
    await eventually(() => record(app, id), (r) => r.body.status === 'sent');
    expect((await postEvolution(app, evolution('messages_update_server_ack', 'envB', id, KEY_A, 'ERROR'))).status).toBe(200);
    await eventually(() => record(app, id), (r) => r.body.status === 'failed');
    const forged = uniqueId('FORGED');
    expect((await postEvolution(app, evolution('messages_upsert_text_inbound', 'envB', forged, KEY_A))).status).toBe(200);
    const rows = await db.query('SELECT authenticated FROM messages WHERE message_id = $1', [`evolution:envB:msg:${forged}`]);
    expect(rows).toEqual([{ authenticated: true }]);
  });
});

describe('with TENANTS_FILE binding keyA to tenantA and keyB to tenantB', () => {
  let app: TestApp;
  beforeAll(async () => {
    const file = tenantsFile(`tenants:
  - source: evolution
    tenant: tenantA
    credentials: [${KEY_A}]
  - source: evolution
    tenant: tenantB
    credentials: ["\${TENANT_B_KEY}"]
  - source: waha
    tenant: sessionA
    credentials: [${WAHA_A}]
  - source: waha
    tenant: sessionB
    credentials: [${WAHA_B}]
  - source: twilio
    tenant: ${TWILIO_A.account}
    credentials: [${TWILIO_A.token}]
  - source: meta
    tenant: "1000000000000001"
    credentials: [${META_SECRET_A}]
  - source: wasender
    tenant: line-a
    credentials: [${WASENDER_A}]
`);
    // EVOLUTION_API_KEY is set too: the file wins for evolution, so this key authenticates nothing.
    app = await startTestApp({
      ...ENV, DATABASE_URL: db.url, WORKER_ENABLED: 'true', TENANTS_FILE: file, TENANT_B_KEY: KEY_B, EVOLUTION_API_KEY: 'ENVIRONMENT-KEY-ANY-TENANT-00001',
    });
  });
  afterAll(() => app?.close());

  it("refuses tenant A's key for a status of tenant B with a 401 naming the mismatch, and B's record does not move", async () => {
    const id = uniqueId('3EB0');
    expect((await postEvolution(app, evolution('messages_update_server_ack', 'tenantB', id, KEY_B))).status).toBe(200);
    await eventually(() => record(app, id, '&tenant=tenantB'), (r) => r.body.status === 'sent');
    const forged = await postEvolution(app, evolution('messages_update_server_ack', 'tenantB', id, KEY_A, 'ERROR'));
    expect(forged.status).toBe(401);
    expect(forged.body.message).toContain('tenantB');
    expect(forged.body.message).toContain('not bound');
    expect(JSON.stringify(forged.body)).not.toContain(KEY_A);
    const stored = await db.query('SELECT message_id FROM messages WHERE message_id LIKE $1', [`evolution:tenantB:msg:${id}:%`]);
    expect(stored.map((r) => r.message_id)).toEqual([`evolution:tenantB:msg:${id}:SERVER_ACK`]);
    expect((await record(app, id, '&tenant=tenantB')).body.status).toBe('sent');
  });

  it("refuses tenant A's key for a message of tenant B, and stores nothing", async () => {
    const forged = uniqueId('FORGED');
    const answer = await postEvolution(app, evolution('messages_upsert_text_inbound', 'tenantB', forged, KEY_A));
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(/tenant "tenantB".*not bound/);
    expect(await db.query('SELECT 1 FROM messages WHERE message_id LIKE $1', [`%${forged}%`])).toEqual([]);
  });

  it("takes each key for its own tenant (B's key from the environment through ${VAR})", async () => {
    expect((await postEvolution(app, evolution('messages_upsert_text_inbound', 'tenantA', uniqueId('OK'), KEY_A))).status).toBe(200);
    expect((await postEvolution(app, evolution('messages_upsert_text_inbound', 'tenantB', uniqueId('OK'), KEY_B))).status).toBe(200);
  });

  it('binds WAHA HMAC keys to sessions the same way', async () => {
    expect((await postWaha(app, 'sessionA', WAHA_A)).status).toBe(200);
    const forged = await postWaha(app, 'sessionB', WAHA_A);
    expect(forged.status).toBe(401);
    expect(forged.body.message).toMatch(/tenant "sessionB".*not bound/);
  });

  it('keeps one receipt per tenant: the same id from two instances is two records, GET answers 409 without ?tenant=', async () => {
    const id = uniqueId('3EB0');
    expect((await postEvolution(app, evolution('messages_update_server_ack', 'tenantA', id, KEY_A, 'READ'))).status).toBe(200);
    expect((await postEvolution(app, evolution('messages_update_server_ack', 'tenantB', id, KEY_B, 'ERROR'))).status).toBe(200);
    await eventually(() => record(app, id, '&tenant=tenantB'), (r) => r.body.status === 'failed');
    expect((await eventually(() => record(app, id, '&tenant=tenantA'), (r) => r.status === 200)).body).toMatchObject({ tenant: 'tenantA', status: 'read' });
    const ambiguous = await record(app, id);
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.message).toContain('?tenant=');
    expect((await record(app, id, '&tenant=nosuch')).status).toBe(404);
  });

  it("binds a Twilio Auth Token to its AccountSid (every number of that account)", async () => {
    const post = async (account: string) => {
      const sid = `SM${uniqueId('').replace(/\W/g, '').slice(0, 32)}`;
      const form = twilioFixture('inbound_text', { AccountSid: account, MessageSid: sid, SmsSid: sid, SmsMessageSid: sid });
      return postForm(app.baseUrl, '/webhook/twilio', form.raw, await twilioHeaders('/webhook/twilio', form.params, { token: TWILIO_A.token }));
    };
    expect((await post(TWILIO_A.account)).status).toBe(200);
    const forged = await post(TWILIO_B);
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.body).message).toContain(`tenant "${TWILIO_B}:`);
  });

  it('checks every event of a webhook request: a Meta batch naming a second business number is refused whole', async () => {
    const own = metaText();
    const other = metaText();
    other.entry[0].changes[0].value.metadata.phone_number_id = '1000000000000002';
    own.entry[0].changes[0].value.metadata.phone_number_id = '1000000000000001';
    const batch = { object: 'whatsapp_business_account', entry: [...own.entry, ...other.entry] };
    const raw = JSON.stringify(batch);
    const answer = await postWebhook(app.baseUrl, raw, { 'x-hub-signature-256': metaSignature(raw, META_SECRET_A) }, { sign: false, path: '/webhook/meta' });
    expect(answer.status).toBe(401);
    expect((answer.body as any).message).toMatch(/tenant "1000000000000002".*not bound/);
    const wamids = [own, other].map((p) => `meta:msg:${p.entry[0].changes[0].value.messages[0].id}`);
    expect(await db.query('SELECT 1 FROM messages WHERE message_id = ANY($1)', [wamids])).toEqual([]);
    const alone = JSON.stringify(own);
    expect((await postWebhook(app.baseUrl, alone, { 'x-hub-signature-256': metaSignature(alone, META_SECRET_A) }, { sign: false, path: '/webhook/meta' })).status).toBe(200);
  });

  it("gives WASender events the tenant their secret is bound to (WASender's body names none)", async () => {
    const payload = fixture('wasender_messages_received');
    payload.data.messages.key.id = uniqueId('3EB0');
    expect((await postWebhook(app.baseUrl, payload, { 'x-webhook-signature': WASENDER_A }, { sign: false, path: '/webhook/wasender' })).status).toBe(200);
    const [row] = await db.query('SELECT tenant FROM messages WHERE message_id = $1', [`wasender:msg:${payload.data.messages.key.id}`]);
    expect(row).toEqual({ tenant: 'line-a' });
  });

  it("ignores the environment's key of a source the file binds (the file wins)", async () => {
    const answer = await postEvolution(app, evolution('messages_upsert_text_inbound', 'tenantA', uniqueId('ENV'), 'ENVIRONMENT-KEY-ANY-TENANT-00001'));
    expect(answer.status).toBe(401);
  });

  it('refuses an unknown key with the usual 401', async () => {
    const answer = await postEvolution(app, evolution('messages_upsert_text_inbound', 'tenantA', uniqueId('X'), 'SOME-OTHER-KEY-0000000000000000'));
    expect(answer.status).toBe(401);
    expect(answer.body.message).not.toContain('bound');
  });
});

describe('a wrong TENANTS_FILE', () => {
  it('stops the start with a line naming the file, the entry and the field', async () => {
    const file = tenantsFile('tenants:\n  - source: evolution\n    tenant: sales\n    credentials: [short]\n');
    await expect(startTestApp({ ...ENV, DATABASE_URL: db.url, TENANTS_FILE: file })).rejects.toThrow(
      `TENANTS_FILE ${file}: entry 1 (evolution "sales"): credentials #1 must be at least 16 characters`,
    );
  });

  it('refuses WASENDER_TENANT beside wasender entries: the secret names the tenant', async () => {
    const file = tenantsFile(`tenants:\n  - source: wasender\n    tenant: line-a\n    credentials: [${WASENDER_A}]\n`);
    await expect(startTestApp({ ...ENV, DATABASE_URL: db.url, TENANTS_FILE: file, WASENDER_TENANT: 'line-x' })).rejects.toThrow('WASENDER_TENANT must be unset');
  });
});

describe('a service process with TENANTS_FILE and an environment key for the same source', () => {
  it('says at start, in one line, that the file wins and the environment key is ignored, and logs no credential', async () => {
    const file = tenantsFile(`tenants:\n  - source: evolution\n    tenant: sales\n    credentials: [${KEY_A}]\n`);
    const service = await startServiceProcess({ DATABASE_URL: db.url, WEBHOOK_PROVIDERS: 'evolution', TENANTS_FILE: file, EVOLUTION_API_KEY: KEY_B });
    try {
      const lines = service.output().split('\n').filter((line) => line.includes('TENANTS_FILE'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('webhook source evolution: TENANTS_FILE binds credentials to 1 tenant(s) and wins; its credentials from the environment (EVOLUTION_API_KEY) are ignored');
      // A refusal is logged without the tenant it names (Twilio's holds the business number).
      const forged = await postEvolution(service, evolution('messages_upsert_text_inbound', 'tenant-15550009999', uniqueId('F'), KEY_A));
      expect(forged.status).toBe(401);
      await eventually(async () => service.output(), (output) => output.includes('is not bound to the tenant it names'));
      expect(service.output()).not.toContain('15550009999');
      expect(service.output()).not.toContain(KEY_A);
      expect(service.output()).not.toContain(KEY_B);
    } finally {
      await service.stop();
    }
  });
});
