import { metaBatch } from '../support/payloads.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { metaSignature } from '../support/signing.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/**
 * Chaos 6: a burst far above what the claim can take at once. The queue in front of the database
 * is bounded, so the excess is answered 503 (with Retry-After) at once: no timeout, no crash, no
 * memory without end, and every event answered 200 is stored.
 */
let db: TestDatabase;
let service: ServiceProcess;

beforeAll(async () => {
  db = await createTestDatabase();
  // One claim statement at a time (DB_POOL_SIZE=2) and the smallest queue the settings allow.
  service = await startServiceProcess({ DATABASE_URL: db.url, DB_POOL_SIZE: '2', CLAIM_QUEUE_MAX_EVENTS: '1000', CLAIM_QUEUE_MAX_MB: '8' });
}, 60_000);
afterAll(async () => {
  await service?.stop();
  await db?.drop();
});

async function post(body: string) {
  try {
    const res = await fetch(`${service.baseUrl}/webhook/meta`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(body) },
      body,
      signal: AbortSignal.timeout(20_000),
    });
    const answer = (await res.json()) as { accepted?: number };
    return { status: res.status, retryAfter: res.headers.get('retry-after'), accepted: answer.accepted ?? 0 };
  } catch (error) {
    return { status: 0, retryAfter: null, accepted: 0, error: (error as Error).name };
  }
}

describe('chaos: overload', () => {
  it('sheds a burst of 120 batches of 1,000 updates at once with 503s, stores every event it acked, and recovers', async () => {
    const batches = Array.from({ length: 120 }, () => metaBatch(1000));
    const bodies = batches.map((b) => JSON.stringify(b.payload));
    const answers = await Promise.all(bodies.map(post));

    const byStatus = answers.reduce<Record<number, number>>((counts, a) => ({ ...counts, [a.status]: (counts[a.status] ?? 0) + 1 }), {});
    expect(Object.keys(byStatus).sort()).toEqual(['200', '503']); // no timeout, no reset, no 500
    expect(byStatus[503]).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status === 503).every((a) => a.retryAfter === '5')).toBe(true);

    const ackedKeys = batches.filter((_, i) => answers[i].status === 200).flatMap((b) => b.keys);
    const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE message_id = ANY($1)', [ackedKeys]);
    expect(n).toBe(ackedKeys.length);

    // Still alive, counted, and it takes the shed requests once the burst has passed (as Meta's retries would).
    const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
    expect(Number(/^wdd_claims_shed_total (\d+)/m.exec(metrics)![1])).toBe(byStatus[503]);
    for (const [i, answer] of answers.entries()) {
      if (answer.status === 503) expect((await post(bodies[i])).status).toBe(200);
    }
    const [{ total }] = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM messages');
    expect(total).toBe(120 * 1000);
    console.info(`chaos overload: ${byStatus[200]} batches acked, ${byStatus[503]} shed with 503 and taken later`);
  }, 120_000);
});
