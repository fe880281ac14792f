import { jest } from '@jest/globals';
import { StoreUnavailableError } from '../common/domain-errors.js';
import { validateConfig } from '../config/app-config.js';
import type { NormalizedEvent } from '../events/normalized-event.js';
import type { ClaimRow } from '../messages/claim-row.js';
import type { MessagesRepository } from '../messages/messages.repository.js';
import { DedupService } from './dedup.service.js';

const event = (key: string): NormalizedEvent => ({
  key, provider: 'generic', kind: 'message', type: 'text', sender: null, providerTimestamp: null, fromMe: false, authenticated: false, raw: {},
});
/** What a Prisma raw query throws when the server rejects the statement. */
const rejectedByServer = { code: 'P2010', meta: { driverAdapterError: { cause: { originalCode: '22008' } } } };

/** A repository stand-in: the database itself is covered by test/dedup.e2e-spec.ts. */
function serviceWith(claimBatch: (rows: ClaimRow[]) => Promise<Set<string>>) {
  const repository = { claimBatch: jest.fn(claimBatch), claimOneByOne: jest.fn() };
  const config = validateConfig({ DATABASE_URL: 'postgresql://x@127.0.0.1/db', DB_POOL_SIZE: '2' });
  return { dedup: new DedupService(repository as unknown as MessagesRepository, config), repository };
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

  it('does not retry request by request when the server never answered', async () => {
    const { dedup, repository } = serviceWith(async () => {
      throw new Error("Can't reach database server");
    });
    await expect(dedup.claim([event('a')])).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(repository.claimBatch).toHaveBeenCalledTimes(1);
  });
});
