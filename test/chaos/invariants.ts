import type { Downstream } from '../support/downstream.js';
import { eventually } from '../support/eventually.js';
import type { TestDatabase } from '../support/test-database.js';
import type { SendReport } from './meta-sender.js';

export interface Outcome {
  stored: number;
  forwardedKeys: number;
  /** Forwards of a key beyond its first that the downstream answered 2xx: effects done twice. */
  repeated: number;
}

/**
 * What every chaos scenario ends with: every event answered 200 is stored exactly once (the
 * primary key makes "once" structural; "stored" is checked), every stored event is processed
 * and forwarded, and the forwarded keys are exactly the stored ones. Repeated forwards are
 * counted and returned; the scenario decides how many it allows (none, unless it killed a
 * process mid-forward).
 */
export async function expectEveryEventOnce(db: TestDatabase, downstream: Downstream, sent: SendReport, timeoutMs = 60_000): Promise<Outcome> {
  expect(sent.failed.map((f) => f.status)).toEqual([]);
  const acked = [...sent.acked];
  const [{ n: storedAcked }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE message_id = ANY($1)', [acked]);
  expect(storedAcked).toBe(acked.length);

  await eventually(() => db.query<{ n: number }>("SELECT count(*)::int AS n FROM messages WHERE status <> 'processed'"), ([row]) => row.n === 0, timeoutMs);
  const stored = (await db.query<{ message_id: string }>('SELECT message_id FROM messages')).map((r) => r.message_id);
  // Nothing is stored that the sender was not finally told about (it retried every failure).
  expect(stored.sort()).toEqual(acked.sort());

  const delivered = downstream.requests.filter((r) => r.status !== undefined && r.status < 300).map((r) => String(r.headers['idempotency-key']));
  const distinct = new Set(delivered);
  expect([...distinct].sort()).toEqual(stored);
  return { stored: stored.length, forwardedKeys: distinct.size, repeated: delivered.length - distinct.size };
}
