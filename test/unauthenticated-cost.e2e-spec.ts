import net from 'node:net';
import { SOURCE_NAMES } from '../src/sources/source-registry.js';
import { metaText, uniqueId } from './support/payloads.js';
import { metaSignature } from './support/signing.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/**
 * Issue 20, point 4: an unauthenticated request costs almost nothing. Each test talks raw HTTP
 * over a socket, so it can announce a large body, send only part of it, and see whether the
 * service answers (and closes) without waiting for the rest: a service that reads the body first
 * would wait for bytes that never come, and the test would time out.
 */

const REQUEST_TIMEOUT_MS = 2000;
const HEADERS_TIMEOUT_MS = 1000;
const API_KEY = 'inspection-key-for-unauthenticated-cost';
const ANNOUNCED = 3 * 1024 * 1024; // within WEBHOOK_BODY_LIMIT's default: refused for its headers, not its size
const PART = 16 * 1024;

let db: TestDatabase;
let app: TestApp;
let port: number;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startTestApp({
    DATABASE_URL: db.url,
    INSPECTION_API_KEY: API_KEY,
    WEBHOOK_PROVIDERS: SOURCE_NAMES.join(','),
    HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
  });
  port = Number(new URL(app.baseUrl).port);
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

interface Exchange {
  /** Everything the service sent before the socket closed. */
  answer: string;
  status: number;
  headers: Record<string, string>;
  /** Body bytes the client had written when the answer's first byte arrived. */
  sentWhenAnswered: number;
  ms: number;
}

/**
 * Sends `head` and then `body` (at most `sendBytes` of it), then stalls; resolves when the
 * service closes the connection, with what it answered.
 */
function exchange(head: string, sendBytes: number, body: Buffer = Buffer.alloc(sendBytes, 0x20)): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let sent = 0;
    let sentWhenAnswered = -1;
    socket.on('connect', () => {
      socket.write(head);
      const part = body.subarray(0, sendBytes);
      socket.write(part, () => (sent += part.length));
    });
    socket.on('data', (chunk) => {
      if (sentWhenAnswered === -1) sentWhenAnswered = sent;
      received.push(chunk);
    });
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => {
      const answer = Buffer.concat(received).toString('latin1');
      const [statusLine = '', ...headerLines] = answer.split('\r\n\r\n')[0].split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ answer, status: Number(statusLine.split(' ')[1] ?? 0), headers, sentWhenAnswered, ms: performance.now() - started });
    });
  });
}

const postHead = (path: string, headers: Record<string, string | number>) =>
  `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;

const JSON_UPLOAD = { 'content-type': 'application/json', 'content-length': ANNOUNCED };

describe('a per-source URL whose credential is a header: no credential header, no body read', () => {
  const cases: Array<[string, string, Record<string, string>]> = [
    ['meta without X-Hub-Signature-256', '/webhook/meta', {}],
    ['meta with an X-Hub-Signature-256 that cannot be one', '/webhook/meta', { 'x-hub-signature-256': 'sha1=abc' }],
    ['360dialog without x-360dialog-signature', '/webhook/360dialog', {}],
    ['360dialog with an x-360dialog-signature that cannot be one', '/webhook/360dialog', { 'x-360dialog-signature': 'not-a-digest' }],
    ['wasender without X-Webhook-Signature', '/webhook/wasender', {}],
    ['waha without X-Webhook-Hmac', '/webhook/waha', {}],
    ['waha with an X-Webhook-Hmac that cannot be one', '/webhook/waha', { 'x-webhook-hmac': 'abc' }],
    ['generic without webhook-signature', '/webhook/generic', { 'webhook-id': 'msg_1', 'webhook-timestamp': '1750000000' }],
    ['generic with a webhook-timestamp that cannot be one', '/webhook/generic', { 'webhook-id': 'msg_1', 'webhook-timestamp': 'soon', 'webhook-signature': 'v1,abc' }],
  ];

  it.each(cases)('%s: 401 with Connection: close while the upload is still being sent', async (_name, path, headers) => {
    const result = await exchange(postHead(path, { ...JSON_UPLOAD, ...headers }), PART);
    expect(result.status).toBe(401);
    expect(result.headers.connection).toBe('close');
    expect(JSON.parse(result.answer.split('\r\n\r\n')[1])).toMatchObject({ statusCode: 401, message: expect.stringMatching(/missing|malformed/) });
    expect(result.sentWhenAnswered).toBeLessThanOrEqual(PART); // answered with 3 MB still unsent: the service did not wait for the body
  });

  it('twilio without X-Twilio-Signature: 401 before its form body is read', async () => {
    const result = await exchange(postHead('/webhook/twilio', { 'content-type': 'application/x-www-form-urlencoded', 'content-length': ANNOUNCED }), PART);
    expect(result.status).toBe(401);
    expect(result.headers.connection).toBe('close');
    expect(result.answer).toContain('X-Twilio-Signature');
  });
});

describe('verify before parsing', () => {
  it('a per-source URL checks the signature over the bytes before decoding them: a body that is not JSON gets 401, not 400', async () => {
    const notJson = '{"object":"whatsapp_business_account","entry":[[[[[' + 'x'.repeat(1000);
    const res = await fetch(`${app.baseUrl}/webhook/meta`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(notJson, 'not-the-app-secret') },
      body: notJson,
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ statusCode: 401, message: expect.stringContaining('X-Hub-Signature-256') });
  });

  it('a signed body still has to be JSON: 400 after the signature passed', async () => {
    const notJson = '{"object":';
    const res = await fetch(`${app.baseUrl}/webhook/meta`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(notJson) }, body: notJson,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/not valid JSON/);
  });

  it('POST /webhook (no source in the URL) picks the source from the body, so it parses first: a body that is not JSON gets 400', async () => {
    const res = await fetch(`${app.baseUrl}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"object":' });
    expect(res.status).toBe(400);
  });

  it('a signed webhook request to a per-source URL is still stored', async () => {
    const raw = JSON.stringify(metaText(uniqueId()));
    const res = await fetch(`${app.baseUrl}/webhook/meta`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw) }, body: raw });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { accepted: number }).accepted).toBe(1);
  });
});

describe('only webhook routes read bodies', () => {
  it('POST /nonexistent with a 3 MB body is answered 404 before the body is sent, and the connection closed', async () => {
    const result = await exchange(postHead('/nonexistent', JSON_UPLOAD), PART);
    expect(result.status).toBe(404);
    expect(result.headers.connection).toBe('close');
    expect(result.sentWhenAnswered).toBeLessThanOrEqual(PART);
  });

  it('POST /messages/replay without the API key is answered 401 before its 3 MB body is sent', async () => {
    const result = await exchange(postHead('/messages/replay', JSON_UPLOAD), PART);
    expect(result.status).toBe(401);
    expect(result.headers.connection).toBe('close');
    expect(result.sentWhenAnswered).toBeLessThanOrEqual(PART);
  });

  it('an answer to a request whose body was all received keeps the connection alive', async () => {
    for (const init of [{}, { method: 'POST', headers: { authorization: `Bearer ${API_KEY}` } }]) {
      const res = await fetch(`${app.baseUrl}${'method' in init ? '/messages/replay?dryRun=true' : '/health'}`, init);
      await res.arrayBuffer();
      expect(res.headers.get('connection')).toBe('keep-alive');
    }
  });

  it('POST /messages/replay with the key takes its parameters from the query, and no body', async () => {
    const res = await fetch(`${app.baseUrl}/messages/replay?dryRun=true`, { method: 'POST', headers: { authorization: `Bearer ${API_KEY}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ dryRun: true });
  });
});

describe('slow uploads are cut', () => {
  it('an upload that stalls after a well-formed (forged) signature header is cut at HTTP_REQUEST_TIMEOUT_MS with 408', async () => {
    const result = await exchange(postHead('/webhook/meta', { ...JSON_UPLOAD, 'x-hub-signature-256': metaSignature('forged', 'not-the-app-secret') }), PART);
    expect(result.status).toBe(408);
    expect(result.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50); // not refused early: only the timeout ended it
  });

  it('headers that stall are cut at HTTP_HEADERS_TIMEOUT_MS', async () => {
    const result = await exchange('POST /webhook/meta HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: appl', 0);
    expect(result.status).toBe(408);
    expect(result.ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
  });
});
