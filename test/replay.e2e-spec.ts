import type { Reply } from './support/downstream.js';
import { eventually } from './support/eventually.js';
import { metaText, uniqueId } from './support/payloads.js';
import { useServiceWithDownstream } from './support/forwarding.js';
import { postWebhook } from './support/test-app.js';

/** The downstream answers per Idempotency-Key; keys not listed get 200. */
const behaviour = new Map<string, (n: number) => Reply>();
const ctx = useServiceWithDownstream(
  (_, req) => {
    const key = String(req.headers['idempotency-key']);
    return behaviour.get(key)?.(ctx.downstream.byKey(key).length) ?? { status: 200 };
  },
  { MAX_ATTEMPTS: '2', RETRY_BASE_MS: '50', LEASE_SECONDS: '5', FORWARD_TIMEOUT_MS: '3000' },
);

const detail = async (key: string) => {
  const res = await fetch(`${ctx.app.baseUrl}/messages/${encodeURIComponent(key)}`);
  return { status: res.status, body: (await res.json()) as any };
};
const replay = async (key: string, query = '') => {
  const res = await fetch(`${ctx.app.baseUrl}/messages/${encodeURIComponent(key)}/replay${query}`, { method: 'POST' });
  return { status: res.status, body: (await res.json()) as any };
};
/** Posts a new event; its downstream answers are set first, or the worker could forward it before they are. */
const newEvent = async (reply?: (n: number) => Reply) => {
  const wamid = uniqueId();
  const key = `meta:msg:${wamid}`;
  if (reply) behaviour.set(key, reply);
  await postWebhook(ctx.app.baseUrl, metaText(wamid, 'order #42'));
  return key;
};
const statusOf = async (key: string) => (await detail(key)).body.status as string;

describe('the detail record', () => {
  it('shows duplicates, retries, completed steps and the payload', async () => {
    const wamid = uniqueId();
    const key = `meta:msg:${wamid}`;
    behaviour.set(key, (n) => (n === 1 ? { status: 502 } : { status: 200 }));
    await postWebhook(ctx.app.baseUrl, metaText(wamid, 'order #42'));
    await postWebhook(ctx.app.baseUrl, metaText(wamid, 'order #42'));
    await eventually(() => statusOf(key), (s) => s === 'processed');
    const { status, body } = await detail(key);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: key, provider: 'meta', kind: 'message', type: 'text', from: '16505551234', status: 'processed',
      attempts: 2, lastError: 'forward: FORWARD_URL answered 502: {"ok":false}', duplicateCount: 1,
    });
    expect(Date.parse(body.lastDuplicateAt)).toBeGreaterThanOrEqual(Date.parse(body.receivedAt));
    expect(Date.parse(body.processedAt)).toBeGreaterThan(Date.parse(body.receivedAt));
    expect(body.steps).toEqual([{ name: 'forward', attempt: 2, completedAt: expect.any(String), result: { status: 200 } }]);
    expect(body.payload.message.text.body).toBe('order #42');
    // The redelivery may land before or after the failed attempt; the rest is in order.
    const timeline = body.timeline.map(({ at, ...entry }: { at: string }) => entry);
    expect(timeline.filter((e: { kind: string }) => e.kind !== 'duplicate')).toEqual([
      { kind: 'received' },
      { kind: 'attempt-failed', step: 'forward', attempt: 1, error: 'forward: FORWARD_URL answered 502: {"ok":false}' },
      { kind: 'step', step: 'forward', attempt: 2 },
      { kind: 'processed' },
    ]);
    expect(timeline).toContainEqual({ kind: 'duplicate', count: 1 });
    const times = body.timeline.map((e: { at: string }) => Date.parse(e.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });
});

describe('POST /messages/{id}/replay', () => {
  it('brings a dead event back until it is processed', async () => {
    let downstreamUp = false;
    const key = await newEvent(() => (downstreamUp ? { status: 200 } : { status: 500 }));
    await eventually(() => statusOf(key), (s) => s === 'dead');
    expect((await detail(key)).body.attempts).toBe(2);

    downstreamUp = true;
    expect(await replay(key)).toEqual({ status: 202, body: { id: key, status: 'received', completedSteps: [], replay: 0, destinations: [] } });
    await eventually(() => statusOf(key), (s) => s === 'processed');
    const { body } = await detail(key);
    expect(body).toMatchObject({ attempts: 1, steps: [{ name: 'forward', attempt: 1 }] });
    expect(ctx.downstream.byKey(key).map((r) => r.headers['x-delivery-attempt'])).toEqual(['1', '2', '1']);
    expect(body.timeline.map((e: { kind: string; attempt?: number }) => `${e.kind}${e.attempt ?? ''}`))
      .toEqual(['received', 'attempt-failed1', 'attempt-failed2', 'dead2', 'replayed', 'step1', 'processed']);
    expect(body.timeline.find((e: { kind: string }) => e.kind === 'replayed')).toMatchObject({ fromStart: false });
  });

  it('replays a processed event only with ?from=start: a second effect under a key of its own, in both key headers', async () => {
    const key = await newEvent();
    await eventually(() => statusOf(key), (s) => s === 'processed');
    const refused = await replay(key);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/from=start/);

    for (const n of [1, 2]) {
      expect(await replay(key, '?from=start')).toMatchObject({ status: 202, body: { completedSteps: [], replay: n } });
      await eventually(() => statusOf(key), (s) => s === 'processed');
      const [forwarded] = ctx.downstream.byKey(`${key}:replay-${n}`);
      expect(forwarded.headers).toMatchObject({ 'webhook-id': `${key}:replay-${n}`, 'x-replay': String(n), 'x-delivery-attempt': '1' });
      expect(JSON.parse(forwarded.body)).toMatchObject({ id: key, replay: n });
    }
    const [original] = ctx.downstream.byKey(key);
    expect(original.headers['webhook-id']).toBe(key);
    expect(original.headers).not.toHaveProperty('x-replay');
    expect((await detail(key)).body).toMatchObject({ replays: 2, authenticated: true });
    // The steps of earlier runs are forgotten by a replay from the start; the replays stay in the history.
    expect((await detail(key)).body.timeline.map((e: { kind: string; fromStart?: boolean }) => e.kind + (e.fromStart ? '*' : '')))
      .toEqual(['received', 'replayed*', 'replayed*', 'step', 'processed']);
  });

  it('answers 409 while the event is being processed, and 404 for an unknown one', async () => {
    const key = await newEvent(() => ({ status: 200, delayMs: 1500 }));
    await eventually(() => statusOf(key), (s) => s === 'processing');
    const { status, body } = await replay(key, '?from=start');
    expect(status).toBe(409);
    expect(body.message).toMatch(/being processed/);
    expect((await replay('meta:msg:unknown')).status).toBe(404);
    await eventually(() => statusOf(key), (s) => s === 'processed');
  });

  it('rejects an unknown from value naming it', async () => {
    const { status, body } = await replay('meta:msg:x', '?from=middle');
    expect(status).toBe(400);
    expect(JSON.stringify(body.message)).toContain('from');
  });
});
