import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { Webhook } from 'standardwebhooks';
import { DomainError } from '../common/domain-errors.js';
import { toStorableJson } from '../common/storable-json.js';
import { validateConfig } from '../../test/support/settings.js';
import { evolutionEventName } from '../sources/evolution/evolution-envelope.js';
import { redactPhoneNumbers } from '../logging/redact.js';
import { webhookRoute } from './webhook-traffic.js';
import { Dialog360Source } from '../sources/360dialog/dialog360.source.js';
import { EvolutionSource } from '../sources/evolution/evolution.source.js';
import { GenericSource } from '../sources/generic/generic.source.js';
import { MetaSource } from '../sources/meta/meta.source.js';
import { TwilioSource } from '../sources/twilio/twilio.source.js';
import { WahaSource } from '../sources/waha/waha.source.js';
import { WasenderSource } from '../sources/wasender/wasender.source.js';
import type { WebhookSource } from '../sources/webhook-source.js';
import { readWebhookBody } from './webhook-body.js';

/**
 * No input makes the event loop work in more than linear time (docs/linear-time.md). Each
 * source reads, verifies and parses signed bodies holding one adversarial string of up to a
 * megabyte (a run of one character or of a short alternation, with something after it that
 * makes a backtracking regex retry) in every field it reads, and in every header its verifier
 * reads. A linear path takes milliseconds (at most ~300 ms for a 4 MB Twilio form on an idle
 * machine); the quadratic slash regex took 16 s at 100 kB, so about 100 s at the smallest size
 * here and hours at 1 MB. The bound leaves room for a shared, busy machine and still cannot pass
 * a quadratic path. Runs per placement are few: each is a megabyte, and every CI run draws new ones.
 */
const BOUND_MS = 5_000;
const RUNS = 4;
const MB = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Adversarial strings
// ---------------------------------------------------------------------------------------------

/** What backtracking regexes choke on: separators, escapes, brackets, digits, prefixes of the formats read. */
const UNITS = [
  '/', ' ', '\t', '\\', '{', '[', '"', '0', '7', 'ab', '/x', 'x/', '+', '@', ':', '.', '-', '_', ',', ';', '=',
  '\\u', 'v1,', 'sha256=', '+json', '@g.us', 'a@', '12:', '\u0000', '\ud800', '\udc00', '\ud800\udc00', 'é',
];
const adversarial = fc
  .record({
    unit: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...UNITS) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 4 }) }),
    length: fc.integer({ min: MB / 4, max: MB }),
    head: fc.constantFrom('', 'x', '/', ' ', '2026-01-01T00:00:00', 'Sun, 29 Nov 2026 ', '+', 'sha256=', 'Bearer ', 'application/'),
    tail: fc.constantFrom('', 'x', '!', '/', 'Z', '@g.us', 'u0000', ' gmt', '+json', '\n'),
  })
  .map(({ unit, length, head, tail }) => head + unit.repeat(Math.ceil(length / unit.length)) + tail);
/** The reported slow case of issue 20: slashes with something after them, through Evolution's event name. */
const SLASHES = `x${'/'.repeat(MB)}x`;

// ---------------------------------------------------------------------------------------------
// The sources, as the service runs them, every credential configured
// ---------------------------------------------------------------------------------------------

const SECRETS = {
  WHATSAPP_APP_SECRET: 'meta-app-secret',
  WASENDER_WEBHOOK_SECRET: 'wasender-secret',
  GENERIC_WEBHOOK_SECRET: `whsec_${Buffer.from('generic-webhook-secret-for-linear-time').toString('base64')}`,
  TWILIO_AUTH_TOKEN: 'twilio-auth-token-0001',
  DIALOG360_PLATFORM_SECRET: '360dialog-platform-secret',
  DIALOG360_HEADER_SECRET: '360dialog-header-secret',
  WAHA_WEBHOOK_HMAC_KEY: 'waha-hmac-key',
  EVOLUTION_API_KEY: 'EVOLUTION-API-KEY-0001',
};
const PUBLIC_BASE_URL = 'https://hooks.example.test/wa';
const config = validateConfig({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/db', PUBLIC_BASE_URL, ...SECRETS, WASENDER_TENANT: 'line-1' });

/** One request: a body (signed as the source expects unless `headers` replaces a credential) and what else it carries. */
interface Request {
  body: Record<string, unknown>;
  /** The bytes to send instead of the encoded body (still signed): text that need not be JSON at all. */
  raw?: string;
  headers?: Record<string, string>;
  suffix?: string;
}
type Placement = (s: string) => Request;

const hex = (algorithm: string, key: string, raw: string) => createHmac(algorithm, key).update(raw).digest('hex');
/** The headers a genuine sender would add for these bytes. */
const SIGNERS: Record<string, (raw: string, body: Record<string, unknown>, path: string) => Record<string, string>> = {
  meta: (raw) => ({ 'x-hub-signature-256': `sha256=${hex('sha256', SECRETS.WHATSAPP_APP_SECRET, raw)}` }),
  '360dialog': (raw) => ({ 'x-360dialog-signature': hex('sha256', SECRETS.DIALOG360_PLATFORM_SECRET, raw), authorization: SECRETS.DIALOG360_HEADER_SECRET }),
  wasender: () => ({ 'x-webhook-signature': SECRETS.WASENDER_WEBHOOK_SECRET }),
  waha: (raw) => ({ 'x-webhook-hmac': hex('sha512', SECRETS.WAHA_WEBHOOK_HMAC_KEY, raw), 'x-webhook-hmac-algorithm': 'sha512' }),
  evolution: () => ({ apikey: SECRETS.EVOLUTION_API_KEY }),
  generic: (raw) => {
    const id = 'msg_linear';
    return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': new Webhook(SECRETS.GENERIC_WEBHOOK_SECRET).sign(id, new Date(), raw) };
  },
  twilio: (_raw, body, path) => ({ 'x-twilio-signature': getExpectedTwilioSignature(SECRETS.TWILIO_AUTH_TOKEN, `${PUBLIC_BASE_URL}${path}`, body as Record<string, string>) }),
};

/** The request as it arrives: bytes, signed as the source expects unless `headers` replaces a credential. */
function prepare(source: WebhookSource, { body, raw: given, headers = {}, suffix = '' }: Request) {
  const path = `/webhook/${source.name}${suffix === '' ? '' : `/${suffix}`}`;
  const form = source.name === 'twilio';
  const raw = given ?? (form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body));
  const all: Record<string, string> = {
    'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
    ...SIGNERS[source.name]!(raw, body, path),
    ...headers,
  };
  return { raw: Buffer.from(raw), headers: all, path, suffix };
}

/** Reads, verifies and parses one request as the ingress does; a refusal (4xx) is an answer too. */
async function handle(source: WebhookSource, { raw, headers, path, suffix }: ReturnType<typeof prepare>): Promise<void> {
  const req = Object.assign(Readable.from([raw]), { headers }) as unknown as IncomingMessage;
  try {
    const read = await readWebhookBody(req, '8mb', source.bodyFormat);
    const request = { ...read, header: (name: string) => headers[name], url: path, urlSuffix: suffix };
    source.parse(request, source.verify(request));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}

/**
 * Every placement gets its own adversarial strings (and the `examples`), so none is left out by
 * chance. Only reading, verifying and parsing are timed: making and signing the request is the sender's work.
 */
async function expectLinear(source: WebhookSource, placements: Placement[], examples: string[] = []): Promise<void> {
  for (const place of placements) {
    await fc.assert(
      fc.asyncProperty(adversarial, async (s) => {
        const request = prepare(source, place(s));
        const started = performance.now();
        await handle(source, request);
        expect(performance.now() - started).toBeLessThan(BOUND_MS);
      }),
      { numRuns: RUNS, examples: examples.map((s): [string] => [s]) },
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Where each source reads a string
// ---------------------------------------------------------------------------------------------

const meta = (message: Record<string, unknown>, status: Record<string, unknown>, value: Record<string, unknown> = {}) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: 'WABA', time: 1764410000, changes: [{ field: 'messages', value: { metadata: { phone_number_id: '1065' }, messages: [message], statuses: [status], ...value } }] }],
});
const metaMessage = { id: 'wamid.A', from: '16505550001', timestamp: '1764410000', type: 'text' };
const metaStatus = { id: 'wamid.B', status: 'delivered', recipient_id: '16505550002', timestamp: '1764410000' };
const META_PLACEMENTS: Placement[] = [
  (s) => ({ body: meta({ ...metaMessage, id: s }, metaStatus) }),
  (s) => ({ body: meta({ ...metaMessage, from: s }, metaStatus, { contacts: [{ wa_id: s, user_id: s }] }) }),
  (s) => ({ body: meta({ id: 'wamid.A', from_user_id: s, timestamp: s, type: s }, { ...metaStatus, id: s, status: s }) }),
  (s) => ({ body: meta(metaMessage, { ...metaStatus, recipient_participant_id: s, recipient_user_id: s, timestamp: s }) }),
  (s) => ({ body: meta(metaMessage, metaStatus, { metadata: { phone_number_id: s } }) }),
  (s) => ({ body: { object: 'whatsapp_business_account', entry: [{ id: s, time: s, changes: [{ field: s, value: { contacts: [{ user_id: s }] } }] }] } }),
];

const evolution = (event: string, data: Record<string, unknown>, envelope: Record<string, unknown> = {}) => ({
  event, instance: 'sales', data, date_time: '2026-11-29T10:00:00.000Z', apikey: SECRETS.EVOLUTION_API_KEY, ...envelope,
});
const EVOLUTION_PLACEMENTS: Placement[] = [
  (s) => ({ body: evolution(s, {}) }),
  (s) => ({ body: evolution('messages.upsert', {}, { event: undefined }), suffix: s.slice(0, 16_000) }),
  (s) => ({ body: evolution('messages.upsert', {}, { instance: s }) }),
  (s) => ({ body: evolution('messages.upsert', { key: { id: s, remoteJid: s, participant: s }, messageTimestamp: s, messageType: s }) }),
  (s) => ({ body: evolution('messages.upsert', { key: { id: 'A', remoteJid: `${s}@g.us`, participantAlt: s, remoteJidAlt: s } }) }),
  (s) => ({ body: evolution('messages.update', { keyId: s, status: s, remoteJid: s, datetime: s }) }),
  (s) => ({ body: evolution('qrcode.updated', { qrcode: { base64: s, code: s, pairingCode: s } }, { date_time: s, sender: s }) }),
  (s) => ({ body: evolution('messages.upsert', {}, { apikey: s }) }),
  (s) => ({ body: evolution('messages.upsert', {}, { apikey: undefined }), headers: { apikey: s, authorization: s } }),
];

const waha = (event: string, payload: Record<string, unknown>, envelope: Record<string, unknown> = {}) => ({
  id: 'evt_1', timestamp: 1764410000000, event, session: 'default', me: { id: '491@c.us' }, payload, ...envelope,
});
const WAHA_PLACEMENTS: Placement[] = [
  (s) => ({ body: waha(s, {}) }),
  (s) => ({ body: waha('message', {}, { session: s }) }),
  (s) => ({ body: waha('message', { id: s, from: s, to: s, participant: s, timestamp: s, type: s, _data: { type: s } }) }),
  (s) => ({ body: waha('message.ack', { id: s, ack: s, ackName: s, from: `${s}@g.us`, participant: s }) }),
  (s) => ({ body: waha('session.status', { status: s, qr: s }, { me: { id: s, lid: s, jid: s }, timestamp: s }) }),
  (s) => ({ body: waha('message', { id: 'A' }), headers: { 'x-webhook-hmac': s, 'x-webhook-hmac-algorithm': s } }),
];

const wasender = (event: string, data: Record<string, unknown>, envelope: Record<string, unknown> = {}) => ({ event, sessionId: 'k', data, timestamp: 1764410000, ...envelope });
const WASENDER_PLACEMENTS: Placement[] = [
  (s) => ({ body: wasender(s, {}) }),
  (s) => ({ body: wasender('messages.received', { messages: { key: { id: s, remoteJid: s, senderPn: s, cleanedSenderPn: s }, messageTimestamp: s, message: { [s.slice(0, 64)]: {} } } }) }),
  (s) => ({ body: wasender('messages.update', { key: { id: s, remoteJid: `${s}:1@s.whatsapp.net` }, update: { status: s } }, { timestamp: s }) }),
  (s) => ({ body: wasender('message-receipt.update', { key: { id: 'A' }, receipt: { userJid: s, status: s, t: s } }) }),
  (s) => ({ body: wasender('qrcode.updated', { qrCode: s }) }),
  (s) => ({ body: wasender('messages.received', {}), headers: { 'x-webhook-signature': s } }),
];

const GENERIC_PLACEMENTS: Placement[] = [
  (s) => ({ body: { event: s, id: s, from: s, type: s, tenant: s, timestamp: s } }),
  (s) => ({ body: { event: 'message.status', messageId: s, status: s, timestamp: s } }),
  (s) => ({ body: { event: 'message', from: s } }),
  (s) => ({ body: { event: 'message', id: 'A' }, headers: { 'webhook-id': s } }),
  (s) => ({ body: { event: 'message', id: 'A' }, headers: { 'webhook-timestamp': s, 'webhook-signature': s } }),
  (s) => ({ body: { event: 'message', id: 'A' }, headers: { 'webhook-signature': `v1,${s}` } }),
];

const twilio = (fields: Record<string, string>) => ({ MessageSid: 'SM1', AccountSid: 'AC1', From: 'whatsapp:+16505550001', To: 'whatsapp:+14155550000', Body: 'hi', NumMedia: '0', ...fields });
const TWILIO_PLACEMENTS: Placement[] = [
  (s) => ({ body: twilio({ MessageSid: s, From: s, To: s, Body: s }) }),
  (s) => ({ body: twilio({ MessageStatus: s, SmsStatus: s, AccountSid: s, ErrorCode: s }) }),
  (s) => ({ body: twilio({ NumMedia: s, MediaContentType0: s, ProfileName: s, WaId: s }) }),
  (s) => ({ body: twilio({}), headers: { 'x-twilio-signature': s } }),
  (s) => ({ body: twilio({}), headers: { 'x-twilio-signature': 'AAAA', 'x-twilio-webhooks-signature-settings': s } }),
];

/** What every source reads before its own fields: the body's bytes, media type and encoding. */
const withHeaders = (placements: Placement[]): Placement[] => [
  ...placements,
  (s) => ({ body: {}, raw: s }),
  // Balanced nesting as deep as the string is long: `[[[…]]]`, `{"a":{"a":…}}`, inside the source's own envelope.
  (s) => ({ body: {}, raw: JSON.stringify(placements[0]!('x').body).replace(/}$/, `,"deep":${'['.repeat(s.length / 2)}${']'.repeat(s.length / 2)}}`) }),
  (s) => ({ body: {}, raw: `${'{"a":'.repeat(s.length / 5)}1${'}'.repeat(s.length / 5)}` }),
  (s) => ({ ...placements[0]!('x'), headers: { 'content-type': s } }),
  (s) => ({ ...placements[0]!('x'), headers: { 'content-type': `application/json; charset=${s}` } }),
  (s) => ({ ...placements[0]!('x'), headers: { 'content-encoding': s } }),
];

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe('every source reads, verifies and parses a megabyte of adversarial text in linear time', () => {
  it('meta', () => expectLinear(new MetaSource(config), withHeaders(META_PLACEMENTS)));
  it('360dialog', () => expectLinear(new Dialog360Source(config), withHeaders(META_PLACEMENTS)));
  it('evolution, including slashes around the event name', () => expectLinear(new EvolutionSource(config), withHeaders(EVOLUTION_PLACEMENTS), [SLASHES]));
  it('waha', () => expectLinear(new WahaSource(config), withHeaders(WAHA_PLACEMENTS)));
  it('wasender', () => expectLinear(new WasenderSource(config), withHeaders(WASENDER_PLACEMENTS)));
  it('generic', () => expectLinear(new GenericSource(config), withHeaders(GENERIC_PLACEMENTS)));
  it('twilio', () => expectLinear(new TwilioSource(config), withHeaders(TWILIO_PLACEMENTS)));
});

describe('the helpers that see request text, in linear time on a megabyte', () => {
  const timed = (run: () => unknown) => {
    const started = performance.now();
    run();
    return performance.now() - started;
  };

  it("Evolution's event-name normaliser, unbounded, on a run of slashes between other characters", () => {
    expect(timed(() => evolutionEventName(SLASHES))).toBeLessThan(BOUND_MS);
    expect(evolutionEventName('//messages-upsert//')).toBe('messages.upsert');
    expect(evolutionEventName(' /a/b/ ')).toBe('a/b');
  });

  it('the log redaction, the jsonb escaping and the metrics URL router', () => {
    fc.assert(
      fc.property(adversarial, (s) => {
        expect(timed(() => redactPhoneNumbers(s))).toBeLessThan(BOUND_MS);
        expect(timed(() => toStorableJson({ s, [s.slice(0, 1000)]: [s] }))).toBeLessThan(BOUND_MS);
        expect(timed(() => webhookRoute('POST', `/webhook/${s}`))).toBeLessThan(BOUND_MS);
        expect(timed(() => webhookRoute('POST', `/webhook${s}`))).toBeLessThan(BOUND_MS);
      }),
      { numRuns: 16 },
    );
  });
});
