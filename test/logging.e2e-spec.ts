import { createHmac, randomUUID } from 'node:crypto';
import net from 'node:net';
import { eventually } from './support/eventually.js';
import { metaText, uniqueId } from './support/payloads.js';
import { startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { TEST_SECRETS } from './support/signing.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const APP_SECRET = 'app-secret-for-logging-test-7f3a9c';
const PHONE = '16505551234'; // the sender in the Meta fixture (`from`, `wa_id`)
const DISPLAY_PHONE = '15550783881'; // the business number in the same fixture
const PARTICIPANT = '4915123456789'; // a WASender group receipt's participant
const TEXT = `Message text that must never be logged ${randomUUID()}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Line = Record<string, any>;

let db: TestDatabase;
let service: ServiceProcess;
let stdout: string;
let lines: Line[];
const sent: { validSignature: string; badSignature: string; receiptId: string; longId: string; injectedId: string } = {} as any;
const answers: Record<'valid' | 'rejected' | 'longId' | 'injectedId', { status: number; requestId: string | null }> = {} as any;

/** A port nothing listens on: the forward step fails at once and the worker logs the failure. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function post(body: string, headers: Record<string, string>) {
  const res = await fetch(`${service.baseUrl}/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  await res.text();
  return { status: res.status, requestId: res.headers.get('x-request-id') };
}

beforeAll(async () => {
  db = await createTestDatabase();
  service = await startServiceProcess({
    DATABASE_URL: db.url,
    LOG_LEVEL: 'debug',
    WHATSAPP_APP_SECRET: APP_SECRET,
    WORKER_ENABLED: 'true',
    FORWARD_URL: `http://127.0.0.1:${await closedPort()}/events`,
  });

  // (a) a valid, signed Meta webhook request: a phone number and a message text in the body.
  const valid = JSON.stringify(metaText(uniqueId(), TEXT));
  sent.validSignature = 'sha256=' + createHmac('sha256', APP_SECRET).update(valid).digest('hex');
  answers.valid = await post(valid, { 'x-hub-signature-256': sent.validSignature });

  // (b) a bad signature, with a caller-chosen request id.
  const forged = JSON.stringify(metaText(uniqueId(), TEXT));
  sent.badSignature = 'sha256=' + createHmac('sha256', 'not-the-app-secret').update(forged).digest('hex');
  answers.rejected = await post(forged, { 'x-hub-signature-256': sent.badSignature, 'x-request-id': 'test-req-42' });

  // (c) request ids that must not be taken over: too long, and a JSON-injection attempt
  // (a raw newline never reaches the app: Node's HTTP parser rejects the request first).
  // Letters only after the prefix: a run of 7+ digits in the id would be cut like a phone number.
  sent.receiptId = `3EB0${Array.from({ length: 16 }, () => 'ABCDEF'[Math.floor(Math.random() * 6)]).join('')}`;
  const receipt = JSON.stringify({
    event: 'message-receipt.update',
    sessionId: 'SESSION_API_KEY_MUST_NOT_BE_LOGGED',
    data: {
      key: { id: sent.receiptId, remoteJid: '120363025246125486@g.us', fromMe: true },
      receipt: { userJid: `${PARTICIPANT}@s.whatsapp.net`, readTimestamp: 1750031010 },
    },
    timestamp: 1750031010123,
  });
  sent.longId = 'a'.repeat(500);
  answers.longId = await post(receipt, { 'x-request-id': sent.longId, 'x-webhook-signature': TEST_SECRETS.WASENDER_WEBHOOK_SECRET });
  sent.injectedId = 'x","level":60,"msg":"forged line';
  const injected = await fetch(`${service.baseUrl}/health`, { headers: { 'x-request-id': sent.injectedId } });
  answers.injectedId = { status: injected.status, requestId: injected.headers.get('x-request-id') };

  // The worker takes both events, the forward fails, and it logs that (outside any request).
  await eventually(
    async () => service.output(),
    (out) => out.includes(`wasender:receipt:${sent.receiptId}`) && /"context":"Worker".*meta:msg:/.test(out),
  );
  expect((await service.stop()).code).toBe(0);
  stdout = service.output();
  lines = stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Line);
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await db?.drop();
});

const completed = (reqId: string) => lines.filter((l) => l.msg === 'request completed' && l.req?.id === reqId);

describe('the service log (stdout of the built service)', () => {
  it('is one JSON object per line, with a level, a time and a message', () => {
    expect(lines.length).toBeGreaterThan(10);
    expect(stdout.trimEnd().split('\n')).toHaveLength(lines.length);
    for (const line of lines) {
      expect(line).toEqual(expect.objectContaining({ level: expect.any(Number), time: expect.any(Number), msg: expect.any(String) }));
    }
  });

  it('answers the webhook request cases as expected', () => {
    expect(answers.valid.status).toBe(200);
    expect(answers.rejected.status).toBe(401);
    expect(answers.longId.status).toBe(200);
    expect(answers.injectedId.status).toBe(200);
  });

  it('honours a safe X-Request-Id: the service warn line and the (debug) request-completed line carry it, and it is echoed', () => {
    expect(answers.rejected.requestId).toBe('test-req-42');
    const tagged = lines.filter((l) => l.reqId === 'test-req-42');
    const warn = tagged.find((l) => l.context === 'WebhooksService');
    expect(warn).toMatchObject({ level: 40, reqId: 'test-req-42', msg: expect.stringMatching(/^rejected a meta webhook request: X-Hub-Signature-256 does not match/) });
    const [done] = completed('test-req-42');
    // At debug: the rate-limited rejection line above is what a flood of rejections leaves at warn (test/rejection-log.e2e-spec.ts).
    expect(done).toMatchObject({
      level: 20,
      reqId: 'test-req-42',
      req: { id: 'test-req-42', method: 'POST', url: '/webhook' },
      res: { statusCode: 401 },
      responseTime: expect.any(Number),
    });
    expect(tagged).toHaveLength(2);
  });

  it('generates a UUID when the caller sends none, or an unsafe one, and echoes it', () => {
    for (const answer of [answers.valid, answers.longId, answers.injectedId]) {
      expect(answer.requestId).toMatch(UUID);
      expect(completed(answer.requestId!)).toHaveLength(1);
    }
    expect(new Set([answers.valid.requestId, answers.longId.requestId, answers.injectedId.requestId]).size).toBe(3);
    expect(stdout).not.toContain(sent.longId);
    expect(stdout).not.toContain('forged line');
    expect(lines.some((l) => l.level === 60)).toBe(false);
  });

  it('gives every request line its reqId, and worker lines none', () => {
    for (const line of lines.filter((l) => l.req)) expect(line.reqId).toBe(line.req.id);
    const worker = lines.filter((l) => l.context === 'Worker');
    expect(worker.length).toBeGreaterThan(0);
    for (const line of worker) expect(line).not.toHaveProperty('reqId');
  });

  it('never shows phone numbers, message text, secrets or signatures', () => {
    for (const secret of [PHONE, DISPLAY_PHONE, PARTICIPANT, TEXT, APP_SECRET, TEST_SECRETS.WASENDER_WEBHOOK_SECRET, sent.validSignature, sent.badSignature]) {
      expect(stdout).not.toContain(secret);
    }
    // Neither the hex digests alone nor the WASender session key (its API key), nor the contact's name.
    expect(stdout).not.toContain(sent.validSignature.slice('sha256='.length));
    expect(stdout).not.toContain(sent.badSignature.slice('sha256='.length));
    expect(stdout).not.toContain('SESSION_API_KEY_MUST_NOT_BE_LOGGED');
    expect(stdout).not.toContain('Sheena Nelson');
    // The worker names the receipt by its key, the participant's number cut to its last two digits.
    const failure = lines.find((l) => l.context === 'Worker' && l.msg.includes(`wasender:receipt:${sent.receiptId}`));
    expect(failure?.msg).toContain(`wasender:receipt:${sent.receiptId}:read:…89@s.whatsapp.net`);
    expect(failure?.msg).toMatch(/failed at forward: FORWARD_URL unreachable/);
  });
});
