import { createHmac } from 'node:crypto';
import type { Reply } from './support/downstream.js';
import { eventually } from './support/eventually.js';
import { fixture, metaText, uniqueId } from './support/payloads.js';
import { useServiceWithDownstream } from './support/forwarding.js';
import { postWebhook } from './support/test-app.js';

const APP_SECRET = 'meta-app-secret-for-metrics';

// ---------------------------------------------------------------------------------------------
// A strict reader of the Prometheus text format (0.0.4): every line must be a comment, a
// HELP/TYPE line or a sample; anything else fails the test.

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

interface Exposition {
  types: Map<string, string>;
  help: Map<string, string>;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;

/** As Prometheus reads it: Inf and NaN in any case (prom-client writes NaN as "Nan", e.g. for an idle event-loop monitor). */
function parseValue(text: string): number {
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a sample value: ${text}`);
  return Number(text);
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const start = LABEL.lastIndex;
    const match = LABEL.exec(text);
    if (!match || match.index !== start) throw new Error(`bad labels: {${text}}`);
    labels[match[1]] = match[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

function parseExposition(text: string): Exposition {
  const result: Exposition = { types: new Map(), help: new Map(), samples: [] };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      (meta[1] === 'TYPE' ? result.types : result.help).set(meta[2], meta[3]);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE_LINE.exec(line);
    if (!sample) throw new Error(`not a sample line: ${line}`);
    result.samples.push({ name: sample[1], labels: parseLabels(sample[2] ?? ''), value: parseValue(sample[3]) });
  }
  return result;
}

/** The value of the one sample with exactly these labels; 0 when there is none (a counter not yet created). */
function valueOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = exposition.samples.filter(
    (s) => s.name === name && Object.keys(s.labels).length === Object.keys(labels).length &&
      Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

/** Sum of a metric's samples whose labels include these. */
function sumOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return exposition.samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

// ---------------------------------------------------------------------------------------------

/** Events whose text says "fail-once" are answered 500 on their first forward, 200 after. */
const failedOnce = new Set<string>();
const reply = (_n: number, req: { body: string; headers: Record<string, unknown> }): Reply => {
  const key = String(req.headers['idempotency-key']);
  if (req.body.includes('fail-once') && !failedOnce.has(key)) {
    failedOnce.add(key);
    return { status: 500 };
  }
  return { status: 200 };
};

const ctx = useServiceWithDownstream(reply, { WHATSAPP_APP_SECRET: APP_SECRET, RETRY_BASE_MS: '50', SILENCE_ALERT_AFTER_SECONDS: '900' });

async function scrape(): Promise<Exposition> {
  const res = await fetch(`${ctx.app.baseUrl}/metrics`);
  expect(res.status).toBe(200);
  return parseExposition(await res.text());
}

const sign = (raw: string, secret = APP_SECRET) => 'sha256=' + createHmac('sha256', secret).update(raw).digest('hex');

/** POSTs a Meta webhook request signed with the app secret. */
function postSigned(payload: unknown) {
  const raw = JSON.stringify(payload);
  return postWebhook(ctx.app.baseUrl, raw, { 'x-hub-signature-256': sign(raw) });
}

async function postRaw(body: string, contentType: string): Promise<number> {
  const res = await fetch(`${ctx.app.baseUrl}/webhook`, { method: 'POST', headers: { 'content-type': contentType }, body });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Until the worker has nothing left to do (the rows the tests insert by hand are never due) and
 * has counted every event it finished: an outcome is counted just after it is written.
 */
async function quiet(): Promise<void> {
  const busy = "status IN ('received', 'processing') OR (status = 'failed' AND due_at < now() + interval '1 minute')";
  await eventually(() => ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE ${busy}`), ([row]) => row.n === 0);
  const [{ n: processed }] = await ctx.db.query("SELECT count(*)::int AS n FROM messages WHERE status = 'processed'");
  await eventually(scrape, (e) => valueOf(e, 'wdd_processing_outcomes_total', { outcome: 'processed' }) === processed);
}

describe('GET /metrics', () => {
  it('answers the Prometheus text format with every metric typed and described', async () => {
    const res = await fetch(`${ctx.app.baseUrl}/metrics`);
    expect(res.status).toBe(200);
    const contentType = res.headers.get('content-type')!;
    expect(contentType).toMatch(/^text\/plain;/);
    expect(contentType).toContain('version=0.0.4');
    const exposition = parseExposition(await res.text());
    expect(Object.fromEntries([...exposition.types].filter(([name]) => name.startsWith('wdd_')))).toEqual({
      wdd_webhook_deliveries_total: 'counter',
      wdd_events_total: 'counter',
      wdd_signature_rejections_total: 'counter',
      wdd_claims_shed_total: 'counter',
      wdd_destination_outcomes_total: 'counter',
      wdd_destination_circuit_open: 'gauge',
      wdd_destination_paused: 'gauge',
      wdd_ack_duration_seconds: 'histogram',
      wdd_processing_outcomes_total: 'counter',
      wdd_retention_purged_total: 'counter',
      wdd_step_duration_seconds: 'histogram',
      wdd_worker_lag_seconds: 'histogram',
      wdd_inbox_events: 'gauge',
      wdd_inbox_oldest_unprocessed_seconds: 'gauge',
      wdd_last_accepted_event_timestamp_seconds: 'gauge',
      wdd_silence_alert_after_seconds: 'gauge',
    });
    for (const name of exposition.types.keys()) expect(exposition.help.get(name)).toBeTruthy();
    for (const { name } of exposition.samples) {
      const family = [...exposition.types.keys()].find((f) => name === f || name.startsWith(`${f}_`));
      expect({ name, typed: family !== undefined }).toEqual({ name, typed: true });
    }
    expect(exposition.types.get('process_cpu_user_seconds_total')).toBe('counter'); // default Node.js metrics
    // Bounded labels only: never a key, a wamid or a phone number.
    const labelNames = new Set(exposition.samples.filter((s) => s.name.startsWith('wdd_')).flatMap((s) => Object.keys(s.labels)));
    expect([...labelNames].sort()).toEqual(expect.arrayContaining(['kind', 'outcome', 'provider', 'result', 'status']));
    for (const name of labelNames) expect(['kind', 'le', 'outcome', 'provider', 'reason', 'result', 'status', 'step', 'table']).toContain(name);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${ctx.app.baseUrl}/docs-json`)).json()) as {
      paths: Record<string, Record<string, { summary?: string; responses: Record<string, { description?: string; content?: object }> }>>;
    };
    const operation = doc.paths['/metrics']?.get;
    expect(operation?.summary).toBeTruthy();
    expect(operation?.responses['200']).toMatchObject({ description: expect.any(String), content: { 'text/plain': expect.anything() } });
  });
});

describe('webhook metrics', () => {
  it('count every webhook request by source and outcome, events by verdict, and time every answer', async () => {
    const before = await scrape();
    const wamid = uniqueId();
    expect((await postSigned(metaText(wamid))).body.accepted).toBe(1);
    expect((await postSigned(metaText(wamid))).body.duplicates).toBe(1);
    const batch = fixture('meta_batched_2msgs_1status'); // 2 messages and 1 status
    expect((await postSigned(batch)).body.accepted).toBe(3);
    const wasender = fixture('wasender_messages_received');
    wasender.data.messages.key.id = uniqueId('3EB0');
    expect((await postWebhook(ctx.app.baseUrl, wasender)).body.accepted).toBe(1);
    expect(await postRaw('{"object": "whatsapp_business_account", ', 'application/json')).toBe(400); // malformed JSON
    expect(await postRaw('id=abc', 'text/plain')).toBe(400);
    expect((await postWebhook(ctx.app.baseUrl, { hello: 'world' }, {}, { path: '/webhook/wasender' })).status).toBe(400); // not a WASender shape
    expect((await postWebhook(ctx.app.baseUrl, { id: uniqueId('unsigned') }, {}, { sign: false })).status).toBe(401); // generic, unsigned
    const forged = JSON.stringify(metaText());
    expect((await postWebhook(ctx.app.baseUrl, forged, { 'x-hub-signature-256': sign(forged, 'not-the-app-secret') })).status).toBe(401);
    const after = await scrape();

    const delta = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    const sumDelta = (name: string, labels: Record<string, string> = {}) => sumOf(after, name, labels) - sumOf(before, name, labels);

    expect({
      metaOk: delta('wdd_webhook_deliveries_total', { provider: 'meta', outcome: 'ok' }),
      wasenderOk: delta('wdd_webhook_deliveries_total', { provider: 'wasender', outcome: 'ok' }),
      unknownInvalid: delta('wdd_webhook_deliveries_total', { provider: 'unknown', outcome: 'invalid' }),
      wasenderInvalid: delta('wdd_webhook_deliveries_total', { provider: 'wasender', outcome: 'invalid' }),
      metaRejected: delta('wdd_webhook_deliveries_total', { provider: 'meta', outcome: 'signature_rejected' }),
      genericRejected: delta('wdd_webhook_deliveries_total', { provider: 'generic', outcome: 'signature_rejected' }),
      all: sumDelta('wdd_webhook_deliveries_total'),
    }).toEqual({ metaOk: 3, wasenderOk: 1, unknownInvalid: 2, wasenderInvalid: 1, metaRejected: 1, genericRejected: 1, all: 9 });

    expect({
      metaMessageAccepted: delta('wdd_events_total', { provider: 'meta', kind: 'message', result: 'accepted' }),
      metaMessageDuplicate: delta('wdd_events_total', { provider: 'meta', kind: 'message', result: 'duplicate' }),
      metaStatusAccepted: delta('wdd_events_total', { provider: 'meta', kind: 'status', result: 'accepted' }),
      wasenderMessageAccepted: delta('wdd_events_total', { provider: 'wasender', kind: 'message', result: 'accepted' }),
      all: sumDelta('wdd_events_total'),
    }).toEqual({ metaMessageAccepted: 3, metaMessageDuplicate: 1, metaStatusAccepted: 1, wasenderMessageAccepted: 1, all: 6 });

    expect({
      meta: delta('wdd_signature_rejections_total', { provider: 'meta', reason: 'mismatch' }),
      generic: delta('wdd_signature_rejections_total', { provider: 'generic', reason: 'missing' }),
      all: sumDelta('wdd_signature_rejections_total'),
    }).toEqual({ meta: 1, generic: 1, all: 2 });

    // Every webhook request was timed under its source; the histogram is consistent.
    expect({
      meta: delta('wdd_ack_duration_seconds_count', { provider: 'meta' }),
      wasender: delta('wdd_ack_duration_seconds_count', { provider: 'wasender' }),
      generic: delta('wdd_ack_duration_seconds_count', { provider: 'generic' }),
      unknown: delta('wdd_ack_duration_seconds_count', { provider: 'unknown' }),
    }).toEqual({ meta: 4, wasender: 2, generic: 1, unknown: 2 });
    expect(delta('wdd_ack_duration_seconds_sum', { provider: 'meta' })).toBeGreaterThan(0);
    expect(delta('wdd_ack_duration_seconds_sum', { provider: 'meta' })).toBeLessThan(10);
    const buckets = after.samples.filter((s) => s.name === 'wdd_ack_duration_seconds_bucket' && s.labels.provider === 'meta');
    expect(buckets.map((b) => b.labels.le)).toEqual(['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
    buckets.slice(1).forEach((b, i) => expect(b.value).toBeGreaterThanOrEqual(buckets[i].value));
    expect(buckets.at(-1)!.value).toBe(valueOf(after, 'wdd_ack_duration_seconds_count', { provider: 'meta' }));
  });
});

describe('silence metrics', () => {
  const series = (exposition: Exposition, name: string) =>
    Object.fromEntries(exposition.samples.filter((s) => s.name === name).map((s) => [JSON.stringify(s.labels), s.value]));

  it('export SILENCE_ALERT_AFTER_SECONDS for every enabled source', async () => {
    expect(series(await scrape(), 'wdd_silence_alert_after_seconds')).toEqual({
      '{"provider":"meta"}': 900, '{"provider":"wasender"}': 900, '{"provider":"generic"}': 900,
    });
  });

  it('record when a source last had an event accepted; a duplicate leaves it alone', async () => {
    const wamid = uniqueId();
    const sent = Date.now() / 1000;
    expect((await postSigned(metaText(wamid))).body.accepted).toBe(1);
    const answered = Date.now() / 1000;
    const after = await scrape();
    const last = valueOf(after, 'wdd_last_accepted_event_timestamp_seconds', { provider: 'meta' });
    expect(last).toBeGreaterThanOrEqual(sent);
    expect(last).toBeLessThanOrEqual(answered);
    // One series per source that had an event accepted, labelled by the source alone.
    for (const labels of Object.keys(series(after, 'wdd_last_accepted_event_timestamp_seconds'))) {
      expect(['{"provider":"meta"}', '{"provider":"wasender"}', '{"provider":"generic"}']).toContain(labels);
    }

    expect((await postSigned(metaText(wamid))).body.duplicates).toBe(1);
    expect(valueOf(await scrape(), 'wdd_last_accepted_event_timestamp_seconds', { provider: 'meta' })).toBe(last);
  });
});

describe('worker metrics', () => {
  it('count processing outcomes, time each step, and measure the lag of first attempts', async () => {
    await quiet();
    const before = await scrape();
    const wamid = uniqueId();
    const received = Date.now();
    expect((await postSigned(metaText(wamid, 'fail-once please'))).body.accepted).toBe(1);
    // Fails once at forward (500), then succeeds on the retry.
    await eventually(
      () => ctx.db.query('SELECT status, attempts FROM messages WHERE message_id = $1', [`meta:msg:${wamid}`]),
      ([row]) => row?.status === 'processed',
    );
    const after = await eventually(scrape, (e) => sumOf(e, 'wdd_processing_outcomes_total') - sumOf(before, 'wdd_processing_outcomes_total') === 2);
    const delta = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);

    expect(Object.fromEntries(['processed', 'failed', 'dead', 'lease_lost', 'released', 'error'].map((o) => [o, delta('wdd_processing_outcomes_total', { outcome: o })]))).toEqual({
      processed: 1, failed: 1, dead: 0, lease_lost: 0, released: 0, error: 0,
    });
    expect(delta('wdd_step_duration_seconds_count', { step: 'forward', outcome: 'ok' })).toBe(1);
    expect(delta('wdd_step_duration_seconds_count', { step: 'forward', outcome: 'error' })).toBe(1);
    expect(delta('wdd_step_duration_seconds_sum', { step: 'forward', outcome: 'ok' })).toBeGreaterThan(0);
    expect(valueOf(after, 'wdd_step_duration_seconds_bucket', { step: 'forward', outcome: 'ok', le: '+Inf' })).toBe(
      valueOf(after, 'wdd_step_duration_seconds_count', { step: 'forward', outcome: 'ok' }),
    );
    // One lag observation: the first attempt. The retry's wait is backoff, not lag.
    expect(delta('wdd_worker_lag_seconds_count')).toBe(1);
    const lag = delta('wdd_worker_lag_seconds_sum');
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThanOrEqual((Date.now() - received) / 1000);
  });
});

describe('inbox gauges', () => {
  const insert = (status: string, receivedSecondsAgo: number, dueInSeconds: number) =>
    ctx.db.query(
      `INSERT INTO messages (message_id, provider, kind, type, payload, status, attempts, received_at, due_at)
       VALUES ($1, 'generic', 'message', 'text', '{}', $2::message_status, 1, now() - $3 * interval '1 second', now() + $4 * interval '1 second')`,
      [`generic:${uniqueId()}`, status, receivedSecondsAgo, dueInSeconds],
    );

  it('reflect the rows of the database at scrape time', async () => {
    await quiet();
    const empty = await scrape();
    expect(['received', 'processing', 'failed'].map((status) => valueOf(empty, 'wdd_inbox_events', { status }))).toEqual([0, 0, 0]);
    expect(valueOf(empty, 'wdd_inbox_oldest_unprocessed_seconds')).toBe(0);

    await insert('dead', 7200, 0);
    await insert('dead', 60, 0);
    await insert('failed', 120, 3600); // retry due in an hour: the worker leaves it alone
    await insert('received', 30, 3600);
    const filled = await scrape();
    expect(Object.fromEntries(['received', 'processing', 'failed', 'dead'].map((status) => [status, valueOf(filled, 'wdd_inbox_events', { status })]))).toEqual({
      received: 1, processing: 0, failed: 1, dead: 2,
    });
    // The failed row is the oldest unfinished one; dead rows do not count.
    const oldest = valueOf(filled, 'wdd_inbox_oldest_unprocessed_seconds');
    expect(oldest).toBeGreaterThanOrEqual(120);
    expect(oldest).toBeLessThan(150);
  });

  it('keep their last values while the database cannot answer, and the scrape still succeeds', async () => {
    const last = valueOf(await scrape(), 'wdd_inbox_events', { status: 'dead' });
    expect(last).toBe(2);
    await ctx.db.query('ALTER TABLE messages RENAME TO messages_elsewhere');
    try {
      const during = await scrape(); // expects 200 inside
      expect(valueOf(during, 'wdd_inbox_events', { status: 'dead' })).toBe(last);
      expect(valueOf(during, 'wdd_ack_duration_seconds_count', { provider: 'meta' })).toBeGreaterThan(0);
    } finally {
      await ctx.db.query('ALTER TABLE messages_elsewhere RENAME TO messages');
    }
    await ctx.db.query("UPDATE messages SET status = 'dead' WHERE status = 'failed'");
    expect(valueOf(await scrape(), 'wdd_inbox_events', { status: 'dead' })).toBe(3);
  });
});
