import { jest } from '@jest/globals';
import { OverloadedError, StoreUnavailableError } from '../common/domain-errors.js';
import { validateConfig } from '../../test/support/settings.js';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import type { ClaimRow } from '../messages/claim-row.js';
import type { MessagesRepository } from '../messages/messages.repository.js';
import type { MetricsService } from '../metrics/metrics.service.js';
import { DedupService } from './dedup.service.js';

const event = (key: string): NormalizedEvent => ({
  key, source: 'generic', kind: 'message', type: 'text', sender: null, userId: null, tenant: null, providerTimestamp: null, fromMe: false, authenticated: false, raw: {},
});
/** What a Prisma raw query throws when the server rejects the statement. */
const rejectedByServer = { code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '22008' } } } };

/** A repository stand-in: the database itself is covered by test/dedup.e2e-spec.ts. */
function serviceWith(claimBatch: (rows: ClaimRow[]) => Promise<Set<string>>) {
  const repository = { claimBatch: jest.fn(claimBatch), claimOneByOne: jest.fn() };
  const config = validateConfig({ DATABASE_URL: 'postgresql://x@127.0.0.1/db', DB_POOL_SIZE: '2', CLAIM_QUEUE_MAX_EVENTS: '1000' });
  const metrics = { claimShed: jest.fn() };
  return { dedup: new DedupService(repository as unknown as MessagesRepository, config, config, metrics as unknown as MetricsService), repository, metrics };
}

describe('DedupService', () => {
  it('accepts the first copy of a key inserted by the batch and calls every other copy a duplicate', async () => {
    const { dedup } = serviceWith(async () => new Set(['a']));
    await expect(dedup.claim([event('a'), event('b'), event('a')])).resolves.toEqual([
      { id: 'a', result: 'accepted' }, { id: 'b', result: 'duplicate' }, { id: 'a', result: 'duplicate' },
    ]);
  });

  it('fails only the request the server rejects when requests were batched together', async () => {
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    const { dedup, repository } = serviceWith(async (rows) => {
      if (rows.some((r) => r.key === 'first')) await busy; // keeps the single flush slot busy
      if (rows.some((r) => r.key === 'poison')) throw rejectedByServer;
      return new Set(rows.map((r) => r.key));
    });
    const first = dedup.claim([event('first')]);
    const poisoned = dedup.claim([event('poison')]);
    const healthy = dedup.claim([event('healthy')]);
    release();
    await expect(first).resolves.toEqual([{ id: 'first', result: 'accepted' }]);
    await expect(poisoned).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(healthy).resolves.toEqual([{ id: 'healthy', result: 'accepted' }]);
    expect(repository.claimBatch.mock.calls.map(([rows]) => rows.map((r) => r.key))).toEqual([['first'], ['healthy', 'poison'], ['poison'], ['healthy']]);
  });

  it.each([
    ['a statement timeout', '57014'],
    ['too many connections', '53300'],
    ['a lost connection', '08006'],
  ])('fails a batched flush as a whole on %s, without one statement per request', async (_name, state) => {
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    const { dedup, repository } = serviceWith(async (rows) => {
      if (rows.some((r) => r.key === 'first')) await busy;
      throw { code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: state } } } };
    });
    const first = dedup.claim([event('first')]);
    const others = [dedup.claim([event('b')]), dedup.claim([event('c')]), dedup.claim([event('d')])];
    release();
    await expect(first).rejects.toBeInstanceOf(StoreUnavailableError);
    for (const other of others) await expect(other).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(repository.claimBatch).toHaveBeenCalledTimes(2); // [first], then [b, c, d] once
  });

  it('sheds a delivery at once with OverloadedError when the queue is full, counting it', async () => {
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    const { dedup, metrics } = serviceWith(async (rows) => {
      await busy;
      return new Set(rows.map((r) => r.key));
    });
    // DB_POOL_SIZE=2: one flush at a time; CLAIM_QUEUE_MAX_EVENTS=1000 events may wait.
    const running = dedup.claim([event('running')]);
    const waiting = dedup.claim(Array.from({ length: 1000 }, (_, i) => event(`w${i}`)));
    await expect(dedup.claim([event('one-too-many')])).rejects.toBeInstanceOf(OverloadedError);
    expect(metrics.claimShed).toHaveBeenCalledTimes(1);
    release();
    await expect(running).resolves.toHaveLength(1);
    await expect(waiting).resolves.toHaveLength(1000);
  });

  it('does not retry request by request when the server never answered', async () => {
    const { dedup, repository } = serviceWith(async () => {
      throw new Error("Can't reach database server");
    });
    await expect(dedup.claim([event('a')])).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(repository.claimBatch).toHaveBeenCalledTimes(1);
  });

  it('claims a large delivery in chunks of 1,000, one statement after the other, answering in its order', async () => {
    const { dedup, repository } = serviceWith(async (rows) => new Set(rows.map((r) => r.key).filter((key) => key !== 'k1500')));
    const claims = await dedup.claim(Array.from({ length: 2500 }, (_, i) => event(`k${i}`)));
    expect(repository.claimBatch.mock.calls.map(([rows]) => rows.length)).toEqual([1000, 1000, 500]);
    expect(claims.map((c) => c.id)).toEqual(Array.from({ length: 2500 }, (_, i) => `k${i}`));
    expect(claims.filter((c) => c.result === 'duplicate')).toEqual([{ id: 'k1500', result: 'duplicate' }]);
  });

  it('fails the delivery at the first chunk that fails, without sending the chunks after it', async () => {
    const { dedup, repository } = serviceWith(async (rows) => {
      if (rows.some((r) => r.key === 'k1500')) throw new Error("Can't reach database server");
      return new Set(rows.map((r) => r.key));
    });
    await expect(dedup.claim(Array.from({ length: 3500 }, (_, i) => event(`k${i}`)))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(repository.claimBatch).toHaveBeenCalledTimes(2);
  });

  it('queues a delivery larger than the claim queue a chunk at a time instead of shedding it', async () => {
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    const { dedup } = serviceWith(async (rows) => {
      if (rows.some((r) => r.key === 'running')) await busy;
      return new Set(rows.map((r) => r.key));
    });
    // CLAIM_QUEUE_MAX_EVENTS=1000 with the only flush slot busy: 5,000 events wait 1,000 at a time.
    const running = dedup.claim([event('running')]);
    const large = dedup.claim(Array.from({ length: 5000 }, (_, i) => event(`w${i}`)));
    release();
    await expect(running).resolves.toHaveLength(1);
    await expect(large).resolves.toHaveLength(5000);
  });
});
