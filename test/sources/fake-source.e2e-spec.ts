import { randomUUID } from 'node:crypto';
import { registerSources } from '../../src/sources/source-registry.js';
import { postWebhook, startTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { fake, FAKE_KEY } from './support/fake-source.js';

/**
 * Adding a source is one folder and one registry line (docs/adding-a-source.md). This source
 * lives in test/sources/support/ and is added to the registry here, before the app is built;
 * no file of src/ names it. Over real HTTP and PostgreSQL it is verified, parsed and stored,
 * its credential header is censored in the logs, and it is in the OpenAPI document.
 */
registerSources(fake);

let db: TestDatabase;
let service: TestApp;
let logs = '';
const write = process.stdout.write;

beforeAll(async () => {
  db = await createTestDatabase();
  // pino writes to process.stdout itself once its write is replaced: the app's log lines land here.
  process.stdout.write = ((chunk: string | Uint8Array) => {
    logs += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  service = await startTestApp({ DATABASE_URL: db.url, LOG_LEVEL: 'info', WEBHOOK_PROVIDERS: 'meta,fake' });
  // The database enumerates sources (type provider): a real source ships a migration with
  // ALTER TYPE provider ADD VALUE '<name>'. This test adds its value the same way, in its own
  // database, once the app's migrations have made the type.
  await db.query(`ALTER TYPE provider ADD VALUE 'fake'`);
});

afterAll(async () => {
  await service?.close();
  process.stdout.write = write;
  await db?.drop();
});

const body = (id: string) => JSON.stringify({ fakeEvents: [{ id, from: 'fake-sender' }] });
const post = (raw: string, headers: Record<string, string>, path = '/webhook/fake') => postWebhook(service.baseUrl, raw, headers, { sign: false, path });

describe('a source registered through the registry alone', () => {
  it('refuses a request without its credential, or with a wrong one (401)', async () => {
    expect(await post(body(randomUUID()), {})).toMatchObject({ status: 401, body: { message: expect.stringContaining('X-Fake-Key') } });
    expect((await post(body(randomUUID()), { 'x-fake-key': 'not-the-key' })).status).toBe(401);
  });

  it('verifies a request with its credential, parses its events and stores them', async () => {
    const id = randomUUID();
    const answer = await post(body(id), { 'x-fake-key': FAKE_KEY });
    expect(answer).toMatchObject({ status: 200, body: { accepted: 1, events: [{ id: `fake:msg:${id}`, result: 'accepted' }] } });
    const [row] = await db.query('SELECT provider, kind, sender, authenticated FROM messages WHERE message_id = $1', [`fake:msg:${id}`]);
    expect(row).toEqual({ provider: 'fake', kind: 'message', sender: 'fake-sender', authenticated: true });
  });

  it('is detected by its descriptor at POST /webhook', async () => {
    const id = randomUUID();
    expect(await post(body(id), { 'x-fake-key': FAKE_KEY }, '/webhook')).toMatchObject({ status: 200, body: { accepted: 1, events: [{ id: `fake:msg:${id}` }] } });
  });

  it('has its credential header censored in the logs', () => {
    const line = logs.split('\n').find((text) => text.includes('fake request verified'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ headers: { 'x-fake-key': '[Redacted]', 'content-type': 'application/json' } });
    expect(logs).not.toContain(FAKE_KEY);
  });

  it('is listed in the OpenAPI document’s source enum', async () => {
    const document = (await (await fetch(`${service.baseUrl}/docs-json`)).json()) as { paths: Record<string, any> };
    const [source] = document.paths['/webhook/{source}'].post.parameters;
    expect(source).toMatchObject({ name: 'source', schema: { enum: expect.arrayContaining(['meta', 'fake']) } });
  });
});
