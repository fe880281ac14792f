import type { PGlite } from '@electric-sql/pglite';
import { withProtocolBatches } from './protocol-batches.js';

/** A stand-in with what pglite-socket calls; the real server is covered by test/embedded-connections.e2e-spec.ts. */
function fakeDb(inTransaction = false) {
  const executed: string[] = [];
  const db = {
    isInTransaction: () => inTransaction,
    execProtocolRawStream: async (message: Uint8Array) => void executed.push(String.fromCharCode(message[0])),
    exec: async (query: string) => void executed.push(query),
    waitReady: Promise.resolve(),
  };
  return { db: withProtocolBatches(db as unknown as PGlite), executed };
}
const STREAM = { onRawData: () => undefined };
const message = (type: string) => new Uint8Array([type.charCodeAt(0), 0, 0, 0, 4]);

describe('withProtocolBatches', () => {
  it('reports a transaction from a Parse until its Sync, so the socket server serves that connection only', async () => {
    const { db, executed } = fakeDb();
    const seen: boolean[] = [];
    for (const type of ['P', 'B', 'D', 'E', 'S']) {
      await db.execProtocolRawStream(message(type), STREAM);
      seen.push(db.isInTransaction());
    }
    expect(seen).toEqual([true, true, true, true, false]);
    expect(executed).toEqual(['P', 'B', 'D', 'E', 'S']);
  });

  it('keeps a simple Query on its own, and still reports a real transaction', async () => {
    const { db } = fakeDb();
    await db.execProtocolRawStream(message('Q'), STREAM);
    expect(db.isInTransaction()).toBe(false);
    expect(fakeDb(true).db.isInTransaction()).toBe(true);
  });

  it('ends an open batch when the server rolls back after its connection went away', async () => {
    const { db, executed } = fakeDb();
    await db.execProtocolRawStream(message('P'), STREAM);
    await db.exec('ROLLBACK');
    expect(db.isInTransaction()).toBe(false);
    expect(executed).toEqual(['P', 'ROLLBACK']);
  });

  it('passes everything else through to PGlite', async () => {
    await expect(fakeDb().db.waitReady).resolves.toBeUndefined();
  });
});
