import { isSignedWith, startDownstream, type Downstream } from './support/downstream.js';
import { eventually } from './support/eventually.js';
import { metaText, uniqueId } from './support/payloads.js';
import { startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { postWebhook } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

const SECRET = 'forward-secret-123';
let db: TestDatabase;
let downstream: Downstream | undefined;
let graph: Downstream | undefined;
const processes: ServiceProcess[] = [];

const start = async (env: Record<string, string>, options?: { worker?: boolean }) => {
  const p = await startServiceProcess({ DATABASE_URL: db.url, WORKER_ENABLED: 'true', FORWARD_SECRET: SECRET, ...env }, options);
  processes.push(p);
  return p;
};
const rowOf = async (key: string) => (await db.query('SELECT * FROM messages WHERE message_id = $1', [key]))[0];
const statusCounts = async (keys: string[]) =>
  Object.fromEntries((await db.query('SELECT status, count(*)::int AS n FROM messages WHERE message_id = ANY($1) GROUP BY status', [keys])).map((r) => [r.status, r.n]));

beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.stop()));
  await downstream?.close();
  await graph?.close();
  downstream = graph = undefined;
  await db.drop();
});

describe('several worker processes', () => {
  it('forward each event of a redelivery storm over two service processes exactly once, signed', async () => {
    downstream = await startDownstream();
    const services = [await start({ FORWARD_URL: downstream.url }), await start({ FORWARD_URL: downstream.url })];
    const ids = Array.from({ length: 150 }, () => uniqueId());
    const posts = ids.flatMap((id) => [0, 1, 0, 1].map((s) => () => postWebhook(services[s].baseUrl, metaText(id))));
    for (let i = 0; i < posts.length; i += 40) await Promise.all(posts.slice(i, i + 40).map((post) => post()));

    const keys = ids.map((id) => `meta:msg:${id}`);
    await eventually(() => statusCounts(keys), (c) => c.processed === ids.length, 30_000);
    expect(downstream.requests).toHaveLength(ids.length);
    expect(downstream.requests.map((r) => r.headers['idempotency-key']).sort()).toEqual([...keys].sort());
    expect(downstream.requests.every((r) => isSignedWith(SECRET, r) && JSON.parse(r.body).id === r.headers['idempotency-key'])).toBe(true);
    const attempts = await db.query("SELECT attempt, count(*)::int AS n FROM message_steps WHERE step = 'forward' GROUP BY attempt");
    expect(attempts).toEqual([{ attempt: 1, n: ids.length }]); // no lease was lost or taken over
  }, 60_000);

  it('resume an event whose worker was SIGKILLed mid-step, after its lease, without repeating completed steps', async () => {
    downstream = await startDownstream();
    // The Cloud API stand-in never answers the first call: the auto-reply step is in flight when the process dies.
    graph = await startDownstream((n) => (n === 1 ? 'hang' : { status: 200, body: { messages: [{ id: 'wamid.REPLY1' }] } }));
    const env = {
      FORWARD_URL: downstream.url,
      AUTO_REPLY_TEXT: 'Thanks, we got your message',
      WHATSAPP_ACCESS_TOKEN: 'test-token',
      WHATSAPP_GRAPH_URL: graph.url.replace(/\/hook$/, ''),
      LEASE_SECONDS: '3',
      FORWARD_TIMEOUT_MS: '1000',
    };
    const first = await start(env);
    const wamid = uniqueId();
    const key = `meta:msg:${wamid}`;
    await postWebhook(first.baseUrl, metaText(wamid));
    await graph.waitFor(1);
    first.child.kill('SIGKILL');
    await first.exited;
    const orphaned = await rowOf(key);
    expect(orphaned).toMatchObject({ status: 'processing', attempts: 1 });

    // Another worker (the standalone kind) takes over once the lease runs out, not before.
    const standalone = await start({ ...env, WORKER_METRICS_PORT: '0' }, { worker: true });
    const row = await eventually(() => rowOf(key), (r) => r.status === 'processed', 20_000);
    expect(graph.requests[1].at).toBeGreaterThanOrEqual(orphaned.due_at.getTime() - 50);
    expect(downstream.byKey(key)).toHaveLength(1); // forward completed before the kill: not run again
    expect(graph.requests.map((r) => JSON.parse(r.body).biz_opaque_callback_data)).toEqual([`${key}:auto-reply`, `${key}:auto-reply`]);
    expect(graph.requests[1].path).toBe('/106540352242922/messages');
    expect(graph.requests[1].headers.authorization).toBe('Bearer test-token');
    expect(row).toMatchObject({ attempts: 2 });
    expect(row.last_error).toMatch(/^lease expired: .+ did not finish attempt 1$/);
    const steps = await db.query('SELECT step, attempt, result FROM message_steps WHERE message_id = $1 ORDER BY completed_at', [key]);
    expect(steps).toEqual([
      { step: 'forward', attempt: 1, result: { status: 200 } },
      { step: 'auto-reply', attempt: 2, result: { outboundId: 'wamid.REPLY1' } },
    ]);
    // The standalone worker serves its own metrics.
    const metricsPort = /metrics on port (\d+)/.exec(standalone.output())![1];
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/^wdd_processing_outcomes_total\{outcome="processed"\} 1$/m);
    expect(metrics).toMatch(/^wdd_step_duration_seconds_count\{step="auto-reply",outcome="ok"\} 1$/m);
    expect(await standalone.stop()).toEqual({ code: 0, signal: null });
  }, 60_000);
});

describe('SIGTERM', () => {
  it('lets in-flight events finish, then exits 0 with nothing left in processing', async () => {
    downstream = await startDownstream(() => ({ status: 200, delayMs: 1000 }));
    const service = await start({ FORWARD_URL: downstream.url, WORKER_CONCURRENCY: '4' });
    const keys = await Promise.all(Array.from({ length: 4 }, async () => {
      const wamid = uniqueId();
      await postWebhook(service.baseUrl, metaText(wamid));
      return `meta:msg:${wamid}`;
    }));
    await downstream.waitFor(4);
    expect(await service.stop()).toEqual({ code: 0, signal: null });
    expect(await statusCounts(keys)).toEqual({ processed: 4 });
    expect(service.output()).toMatch(/SIGTERM received/);
  }, 30_000);

  it('releases events that outlast SHUTDOWN_TIMEOUT_MS, unfinished and uncounted, and still exits 0', async () => {
    downstream = await startDownstream((n) => (n <= 3 ? 'hang' : { status: 200 }));
    const service = await start({ FORWARD_URL: downstream.url, SHUTDOWN_TIMEOUT_MS: '500' });
    const keys = await Promise.all(Array.from({ length: 3 }, async () => {
      const wamid = uniqueId();
      await postWebhook(service.baseUrl, metaText(wamid));
      return `meta:msg:${wamid}`;
    }));
    await downstream.waitFor(3);
    // A shutdown that waited on the hung calls would never exit, and time the test out.
    expect(await service.stop()).toEqual({ code: 0, signal: null });
    const rows = await db.query('SELECT status, attempts, lease_token FROM messages WHERE message_id = ANY($1)', [keys]);
    expect(rows).toEqual(Array(3).fill({ status: 'received', attempts: 0, lease_token: null }));

    // The next worker delivers them.
    await start({ FORWARD_URL: downstream.url }, { worker: true });
    await eventually(() => statusCounts(keys), (c) => c.processed === 3);
  }, 30_000);
});
