import { startDownstream, type Downstream } from '../support/downstream.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { expectEveryEventOnce } from './invariants.js';
import { mixedRequests, sendLikeMeta } from './meta-sender.js';

/** The killed process's WORKER_CONCURRENCY: the most forwards it can have made but not recorded, so the most that may repeat. */
const IN_FLIGHT = 16;

/** Chaos 1 and 5: processes killed with SIGKILL while requests keep coming. */
let db: TestDatabase;
let downstream: Downstream;
const processes: ServiceProcess[] = [];

beforeEach(async () => {
  db = await createTestDatabase();
  downstream = await startDownstream();
});
afterEach(async () => {
  await Promise.all(processes.splice(0).map((p) => p.stop()));
  await downstream.close();
  await db.drop();
});

const start = async () => {
  // A short lease: the killed process's events are taken over within seconds.
  const service = await startServiceProcess({ DATABASE_URL: db.url, WORKER_ENABLED: 'true', FORWARD_URL: downstream.url, LEASE_SECONDS: '2', WORKER_CONCURRENCY: String(IN_FLIGHT) });
  processes.push(service);
  return service;
};

/** Resolves once `count` keys have been acknowledged (reported by the sender's onAck). */
function ackBarrier(count: number) {
  let reached!: () => void;
  const promise = new Promise<void>((resolve) => (reached = resolve));
  return { promise, onAck: (acked: number) => acked >= count && reached() };
}

describe('chaos: SIGKILL', () => {
  it('of the service and its worker under mixed load, restarted at once: every acked event stored and forwarded, none lost', async () => {
    let service = await start();
    const barrier = ackBarrier(300);
    const sending = sendLikeMeta(() => service.baseUrl, mixedRequests(600), { concurrency: 16, onAck: barrier.onAck });
    await barrier.promise;
    service.child.kill('SIGKILL');
    await service.exited;
    service = await start();
    const sent = await sending;

    expect(sent.answers.get(0) ?? 0).toBeGreaterThan(0); // the kill was felt: requests were cut or refused
    const outcome = await expectEveryEventOnce(db, downstream, sent);
    // A forward the killed worker made but did not record is made again: the one allowed repeat.
    expect(outcome.repeated).toBeLessThanOrEqual(IN_FLIGHT);
    console.info(`chaos kill -9 of the service: ${outcome.stored} events, ${outcome.repeated} forward(s) repeated after the kill`);
  }, 120_000);

  it('of one of two service processes mid-storm: the other takes the retries, each key accepted and forwarded once', async () => {
    const [a, b] = [await start(), await start()];
    const requests = mixedRequests(400).flatMap((d) => [d, d]); // every request twice, racing
    let turn = 0;
    let aAlive = true;
    const barrier = ackBarrier(200);
    const sending = sendLikeMeta(() => (aAlive && turn++ % 2 === 0 ? a.baseUrl : b.baseUrl), requests, { concurrency: 24, onAck: barrier.onAck });
    await barrier.promise;
    a.child.kill('SIGKILL');
    await a.exited;
    aAlive = false;
    const sent = await sending;

    const outcome = await expectEveryEventOnce(db, downstream, sent);
    expect(outcome.repeated).toBeLessThanOrEqual(IN_FLIGHT);
    console.info(`chaos kill -9 of one of two services: ${outcome.stored} events, ${outcome.repeated} forward(s) repeated after the kill`);
  }, 120_000);
});
