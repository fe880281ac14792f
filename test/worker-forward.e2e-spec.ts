import { isSignedWith, type Reply } from './support/downstream.js';
import { eventually } from './support/eventually.js';
import { fixture, metaText, uniqueId } from './support/payloads.js';
import { useServiceWithDownstream } from './support/forwarding.js';
import { postWebhook } from './support/test-app.js';
import { createTestDatabase, EMBEDDED, type TestDatabase } from './support/test-database.js';

const SECRET = 'forward-secret-123';

/** The service forwarding to a downstream answering `reply`, signed with SECRET, retries from 200 ms. */
const useForwarding = (reply: (n: number) => Reply, env: Record<string, string> = {}) =>
  useServiceWithDownstream(reply, { FORWARD_SECRET: SECRET, RETRY_BASE_MS: '200', ...env });

/** Posts a new event and waits until it is forwarded: the worker has been round since anything before it. */
async function forwardedAfter(ctx: { app: { baseUrl: string }; downstream: { byKey(key: string): unknown[] } }): Promise<void> {
  const wamid = uniqueId('wamid.SENTINEL');
  await postWebhook(ctx.app.baseUrl, metaText(wamid));
  await eventually(async () => ctx.downstream.byKey(`meta:msg:${wamid}`).length, (n) => n > 0);
}

const rowOf = async (db: TestDatabase, key: string) => (await db.query('SELECT * FROM messages WHERE message_id = $1', [key]))[0];
const stepsOf = (db: TestDatabase, key: string) => db.query('SELECT step, result, attempt FROM message_steps WHERE message_id = $1 ORDER BY completed_at', [key]);

describe('the forward step', () => {
  // A poll interval far beyond the test's patience: only LISTEN/NOTIFY can start the work at all.
  // (The embedded database cannot notify another connection: there the workers poll.)
  const ctx = useForwarding(() => ({ status: 200 }), EMBEDDED ? {} : { WORKER_POLL_MS: '600000' });

  it('POSTs each accepted event once, signed, with its key as Idempotency-Key, woken by the insert (the poll is 10 minutes away)', async () => {
    if (!EMBEDDED) {
      await eventually(
        () => ctx.db.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN messages_inbox'"),
        (rows) => rows.length === 1,
      );
    }
    const wamid = uniqueId();
    const key = `meta:msg:${wamid}`;
    expect((await postWebhook(ctx.app.baseUrl, metaText(wamid, 'hi there'))).body.accepted).toBe(1);
    await ctx.downstream.waitFor(1);

    const [request] = ctx.downstream.byKey(key);
    expect(isSignedWith(SECRET, request)).toBe(true);
    expect(request.headers['x-delivery-attempt']).toBe('1');
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({ id: key, provider: 'meta', kind: 'message', type: 'text', from: '16505551234', fromMe: false });
    expect(body.payload.message.text.body).toBe('hi there');
    expect(new Date(body.receivedAt).getTime()).toBe((await rowOf(ctx.db, key)).received_at.getTime());

    const row = await eventually(() => rowOf(ctx.db, key), (r) => r.status === 'processed');
    expect(row).toMatchObject({ attempts: 1, lease_token: null, leased_by: null });
    expect(row.processed_at).toBeInstanceOf(Date);
    expect(await stepsOf(ctx.db, key)).toEqual([{ step: 'forward', result: { status: 200 }, attempt: 1 }]);
  });

  it('forwards nothing for a redelivery, and every event of a batch', async () => {
    const before = ctx.downstream.requests.length;
    const batch = fixture('meta_batched_2msgs_1status');
    const answer = await postWebhook(ctx.app.baseUrl, batch);
    expect(answer.body.accepted).toBe(3);
    await ctx.downstream.waitFor(before + 3);
    expect((await postWebhook(ctx.app.baseUrl, batch)).body.duplicates).toBe(3);
    await forwardedAfter(ctx); // the worker has been round since the redelivery
    const batchKeys = answer.body.events.map((e) => e.id);
    const forwarded = ctx.downstream.requests.slice(before).map((r) => String(r.headers['idempotency-key']));
    expect(forwarded.filter((key) => batchKeys.includes(key)).sort()).toEqual([...batchKeys].sort());
    // The status also went through its own step first.
    const statusKey = answer.body.events.find((e) => e.id.startsWith('meta:status:'))!.id;
    const steps = await eventually(() => stepsOf(ctx.db, statusKey), (s) => s.length === 2);
    expect(steps.map((s) => s.step)).toEqual(['delivery-status', 'forward']);
  });
});

describe('a downstream that fails three times, then recovers', () => {
  const ctx = useForwarding((n) => (n <= 3 ? { status: 503 } : { status: 200 }));

  it('forwards the event exactly once after backing off, the failures on record', async () => {
    const key = `meta:msg:${uniqueId()}`;
    await postWebhook(ctx.app.baseUrl, metaText(key.slice('meta:msg:'.length)));
    const row = await eventually(() => rowOf(ctx.db, key), (r) => r.status === 'processed');

    const attempts = ctx.downstream.byKey(key);
    expect(attempts.map((r) => r.headers['x-delivery-attempt'])).toEqual(['1', '2', '3', '4']);
    expect(new Set(attempts.map((r) => r.body)).size).toBe(1); // the same body (and signature) every time
    // Backoff: the n-th retry waits at least half of 200 ms × 2^(n-1).
    const gaps = attempts.slice(1).map((r, i) => r.at - attempts[i].at);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(100 * 2 ** i - 20));
    expect(row).toMatchObject({ attempts: 4, last_error: 'forward: FORWARD_URL answered 503: {"ok":false}' });
    expect(await stepsOf(ctx.db, key)).toEqual([{ step: 'forward', result: { status: 200 }, attempt: 4 }]);
  });
});

describe('a downstream that always fails', () => {
  const ctx = useForwarding(() => ({ status: 500 }), { MAX_ATTEMPTS: '3', RETRY_BASE_MS: '50' });

  it('is tried exactly MAX_ATTEMPTS times, then the event is dead with its last error', async () => {
    const key = `meta:msg:${uniqueId()}`;
    await postWebhook(ctx.app.baseUrl, metaText(key.slice('meta:msg:'.length)));
    const row = await eventually(() => rowOf(ctx.db, key), (r) => r.status === 'dead');
    expect(row).toMatchObject({ attempts: 3, last_error: 'forward: FORWARD_URL answered 500: {"ok":false}', lease_token: null });
    await forwardedAfter(ctx); // the worker has been round since: nothing more happens to a dead event
    expect(ctx.downstream.byKey(key)).toHaveLength(3);
    expect(await stepsOf(ctx.db, key)).toEqual([]);
  });
});

describe('a downstream that answers with a huge body', () => {
  const ctx = useForwarding(() => ({ status: 500, body: { error: 'x'.repeat(20 * 1024 * 1024) } }), { MAX_ATTEMPTS: '1' });

  it('reads at most 64 KiB of it and keeps a short excerpt as the error', async () => {
    const key = `meta:msg:${uniqueId()}`;
    await postWebhook(ctx.app.baseUrl, metaText(key.slice('meta:msg:'.length)));
    const row = await eventually(() => rowOf(ctx.db, key), (r) => r.status === 'dead');
    expect(row.last_error).toMatch(/^forward: FORWARD_URL answered 500: \{"error":"x{200,}…? ?\(answer cut at 64 KiB\)$/);
    expect(row.last_error.length).toBeLessThan(400);
  });
});

describe('a downstream that hangs', () => {
  const ctx = useForwarding(() => 'hang', { WORKER_CONCURRENCY: '2' });

  it('does not hold up the acknowledgement: webhook requests are acked while every worker slot waits on it', async () => {
    await postWebhook(ctx.app.baseUrl, metaText()); // each occupies a worker slot until FORWARD_TIMEOUT_MS
    await postWebhook(ctx.app.baseUrl, metaText());
    await ctx.downstream.waitFor(2);
    for (let i = 0; i < 20; i++) expect((await postWebhook(ctx.app.baseUrl, metaText())).body.accepted).toBe(1);
    // …all answered while both forwards were still waiting for theirs.
    expect(ctx.downstream.requests).toHaveLength(2);
  });
});

describe('a downstream that does not answer in time', () => {
  const ctx = useForwarding(() => 'hang', { FORWARD_TIMEOUT_MS: '300', MAX_ATTEMPTS: '2', RETRY_BASE_MS: '50' });

  it('fails the attempt at FORWARD_TIMEOUT_MS and retries', async () => {
    const key = `meta:msg:${uniqueId()}`;
    await postWebhook(ctx.app.baseUrl, metaText(key.slice('meta:msg:'.length)));
    const row = await eventually(() => rowOf(ctx.db, key), (r) => r.status === 'dead');
    expect(row.last_error).toBe('forward: FORWARD_URL did not answer within 300 ms');
    expect(ctx.downstream.byKey(key)).toHaveLength(2);
  });
});
