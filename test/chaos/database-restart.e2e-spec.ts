import pg from 'pg';
import { startDownstream, type Downstream } from '../support/downstream.js';
import { eventually } from '../support/eventually.js';
import { PrivateCluster } from '../support/private-cluster.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import type { TestDatabase } from '../support/test-database.js';
import { expectEveryEventOnce } from './invariants.js';
import { mixedRequests, sendLikeMeta } from './meta-sender.js';

/**
 * Chaos 2: PostgreSQL restarted twice under load, on a cluster of this test's own (the shared
 * server is never touched). The service is not restarted: it must answer 503 while the database
 * is away, come back by itself, and neither lose nor repeat anything.
 */
const noServer = PrivateCluster.binaries() === undefined && process.env.CI !== 'true';
if (noServer) console.info('No PostgreSQL server binaries on this machine: the database-restart chaos test is skipped (CI always runs it).');
const describeWithCluster = noServer ? describe.skip : describe;

describeWithCluster('chaos: PostgreSQL restarted under load', () => {
  let cluster: PrivateCluster;
  let db: TestDatabase;
  let downstream: Downstream;
  let service: ServiceProcess;

  beforeAll(async () => {
    cluster = await PrivateCluster.start();
    // A connection of its own per query: the restarts cut every open one.
    const query = async (sql: string, params?: unknown[]) => {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end();
      }
    };
    db = { url: cluster.url, name: 'postgres', query: query as TestDatabase['query'], drop: async () => undefined };
    downstream = await startDownstream();
    service = await startServiceProcess({ DATABASE_URL: cluster.url, WORKER_ENABLED: 'true', FORWARD_URL: downstream.url });
  }, 60_000);
  afterAll(async () => {
    await service?.stop();
    await downstream?.close();
    await db?.drop();
    cluster?.destroy();
  });

  it('answers 503 while it is away, recovers without a restart, and stores and forwards every acked event exactly once', async () => {
    let acked = 0;
    const startedAt = async () => (await db.query<{ at: Date }>('SELECT pg_postmaster_start_time() AS at'))[0].at.getTime();
    const starts = [await startedAt()];
    const sending = sendLikeMeta(() => service.baseUrl, mixedRequests(700), { concurrency: 16, onAck: (n) => (acked = n) });
    for (const threshold of [150, 450]) {
      await eventually(async () => acked, (n) => n >= threshold);
      cluster.restart();
      starts.push(await startedAt());
    }
    const sent = await sending;

    expect(new Set(starts).size).toBe(3); // two real restarts, each while requests were being sent
    const outcome = await expectEveryEventOnce(db, downstream, sent);
    expect(outcome.repeated).toBe(0); // no process died: a database blip costs no repeated effect
    await eventually(async () => (await fetch(`${service.baseUrl}/health/ready`)).status, (status) => status === 200);
    expect(service.child.exitCode).toBeNull();
    console.info(`chaos PostgreSQL restarts: ${outcome.stored} events, ${sent.answers.get(503) ?? 0} answers 503 during the restarts, 0 repeated`);
  }, 120_000);
});
