import { startDownstream, type Downstream, type Reply } from '../support/downstream.js';
import { eventually } from '../support/eventually.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { expectEveryEventOnce } from './invariants.js';
import { mixedRequests, sendLikeMeta } from './meta-sender.js';

/** The killed process's WORKER_CONCURRENCY: the most forwards it can have made but not recorded, so the most that may repeat. */
const IN_FLIGHT = 16;

/** Chaos 3 and 4: the standalone worker killed mid-forward; a downstream that fails, then recovers. */
let db: TestDatabase;
let downstream: Downstream;
const processes: ServiceProcess[] = [];

afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.stop()));
  await downstream?.close();
  await db?.drop();
});

async function setUp(reply: (n: number, key: string) => Reply, workerEnv: Record<string, string> = {}) {
  db = await createTestDatabase();
  downstream = await startDownstream((n, req) => reply(n, String(req.headers['idempotency-key'])));
  const service = await startServiceProcess({ DATABASE_URL: db.url, WORKER_ENABLED: 'false' });
  processes.push(service);
  const startWorker = async () => {
    const worker = await startServiceProcess({ DATABASE_URL: db.url, FORWARD_URL: downstream.url, LEASE_SECONDS: '2', WORKER_CONCURRENCY: String(IN_FLIGHT), ...workerEnv }, { worker: true });
    processes.push(worker);
    return worker;
  };
  return { service, startWorker };
}

describe('chaos: the standalone worker', () => {
  it('killed with SIGKILL mid-forward to a slow downstream, then restarted: every event forwarded, only in-flight ones twice', async () => {
    const { service, startWorker } = await setUp(() => ({ status: 200, delayMs: 300 }));
    const worker = await startWorker();
    const sent = await sendLikeMeta(() => service.baseUrl, mixedRequests(150), { concurrency: 8 });
    await downstream.waitFor(40); // well into the backlog, forwards in flight
    worker.child.kill('SIGKILL');
    await worker.exited;
    await startWorker();

    const outcome = await expectEveryEventOnce(db, downstream, sent);
    expect(outcome.repeated).toBeLessThanOrEqual(IN_FLIGHT); // at most the killed worker's in-flight forwards
    console.info(`chaos kill -9 of the worker: ${outcome.stored} events, ${outcome.repeated} forward(s) repeated after the kill`);
  }, 120_000);
});

describe('chaos: the downstream', () => {
  it('failing for a while, then recovering: everything delivered once; ids that always fail end dead, are replayed, end processed', async () => {
    let up = false;
    const broken = new Set<string>();
    const { service, startWorker } = await setUp(
      (_n, key) => (up && !broken.has(key) ? { status: 200 } : { status: 503 }),
      { MAX_ATTEMPTS: '4', RETRY_BASE_MS: '100', RETRY_MAX_MS: '400' },
    );
    await startWorker();
    const requests = mixedRequests(60);
    for (const key of requests.slice(0, 3).flatMap((d) => d.keys)) broken.add(key);
    const sent = await sendLikeMeta(() => service.baseUrl, requests, { concurrency: 8 });
    // Every event has failed at least once before the downstream comes back.
    await eventually(() => db.query("SELECT count(*)::int AS n FROM messages WHERE attempts < 2 AND status <> 'dead'"), ([r]) => r.n === 0, 30_000);
    up = true;

    const dead = await eventually(() => db.query<{ message_id: string }>("SELECT message_id FROM messages WHERE status = 'dead'"), (rows) => rows.length === broken.size, 30_000);
    expect(dead.map((r) => r.message_id).sort()).toEqual([...broken].sort());
    broken.clear();
    for (const { message_id: key } of dead) {
      const replayed = await fetch(`${service.baseUrl}/messages/${encodeURIComponent(key)}/replay`, { method: 'POST' });
      expect(replayed.status).toBe(202);
    }

    const outcome = await expectEveryEventOnce(db, downstream, sent);
    expect(outcome.repeated).toBe(0);
  }, 120_000);
});
