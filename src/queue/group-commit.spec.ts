import { FlushFailure, GroupCommit, QueueFullError, RetryAlone } from './group-commit.js';

/** A flush we control: each call waits until the test releases it. */
function controlledFlush() {
  const calls: { requests: number[][]; release: () => void; fail: (e: Error) => void }[] = [];
  const flush = (requests: number[][]) =>
    new Promise<string[][]>((resolve, reject) => {
      calls.push({ requests, release: () => resolve(requests.map((r) => r.map((n) => `ok${n}`))), fail: reject });
    });
  return { calls, flush };
}

/** Lets settled flushes run their bookkeeping and start the next flush. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('flushes a lone request at once', async () => {
    const { calls, flush } = controlledFlush();
    const batcher = new GroupCommit(flush, { maxConcurrentFlushes: 1, maxItemsPerFlush: 100 });
    const result = batcher.submit([1, 2]);
    expect(calls.map((c) => c.requests)).toEqual([[[1, 2]]]);
    calls[0].release();
    await expect(result).resolves.toEqual(['ok1', 'ok2']);
  });

  it('gathers requests that arrive while flushes are busy into the next flush, keeping each request whole', async () => {
    const { calls, flush } = controlledFlush();
    const batcher = new GroupCommit(flush, { maxConcurrentFlushes: 1, maxItemsPerFlush: 3 });
    const a = batcher.submit([1]);
    const b = batcher.submit([2, 3]);
    const c = batcher.submit([4, 5]);
    const d = batcher.submit([6]);
    expect(calls).toHaveLength(1);
    calls[0].release();
    await a;
    await settle();
    // b and c do not fit together (4 > 3): b goes alone, then c with d.
    expect(calls[1].requests).toEqual([[2, 3]]);
    calls[1].release();
    await expect(b).resolves.toEqual(['ok2', 'ok3']);
    await settle();
    expect(calls[2].requests).toEqual([[4, 5], [6]]);
    calls[2].release();
    await expect(Promise.all([c, d])).resolves.toEqual([['ok4', 'ok5'], ['ok6']]);
  });

  it('runs up to the configured number of flushes at once', () => {
    const { calls, flush } = controlledFlush();
    const batcher = new GroupCommit(flush, { maxConcurrentFlushes: 2, maxItemsPerFlush: 100 });
    for (let i = 0; i < 5; i++) void batcher.submit([i]);
    expect(calls.map((c) => c.requests)).toEqual([[[0]], [[1]]]);
  });

  it('fails every request of a failed flush, and goes on with the next', async () => {
    const { calls, flush } = controlledFlush();
    const batcher = new GroupCommit(flush, { maxConcurrentFlushes: 1, maxItemsPerFlush: 100 });
    const first = batcher.submit([1]);
    const second = batcher.submit([2]);
    const third = batcher.submit([3]);
    calls[0].release();
    await first;
    await settle();
    calls[1].fail(new Error('database down'));
    await expect(second).rejects.toThrow('database down');
    await expect(third).rejects.toThrow('database down');
    await settle();
    const fourth = batcher.submit([4]);
    calls[2].release();
    await expect(fourth).resolves.toEqual(['ok4']);
  });

  it('caps a flush by size as well as by count, and still sends a request larger than the cap alone', async () => {
    const { calls, flush } = controlledFlush();
    const batcher = new GroupCommit(flush, { maxConcurrentFlushes: 1, maxItemsPerFlush: 100, sizeOf: (n: number) => n, maxSizePerFlush: 10 });
    const all = [batcher.submit([1]), batcher.submit([4, 5]), batcher.submit([20]), batcher.submit([3])];
    for (let i = 0; i < 4 && i < calls.length + 1; i++) {
      await settle();
      calls.at(-1)!.release();
    }
    await Promise.all(all);
    expect(calls.map((c) => c.requests)).toEqual([[[1]], [[4, 5]], [[20]], [[3]]]);
  });

  it('refuses at once what would overflow the queue (items or size), and admits again once it drains', async () => {
    const { calls, flush } = controlledFlush();
    const batcher = new GroupCommit(flush, { maxConcurrentFlushes: 1, maxItemsPerFlush: 100, sizeOf: (n: number) => n, maxQueuedItems: 3, maxQueuedSize: 100 });
    const running = batcher.submit([1]); // flushed at once: never counted against the queue
    const waiting = batcher.submit([2, 3]);
    await expect(batcher.submit([4, 5])).rejects.toBeInstanceOf(QueueFullError); // 4 items > 3
    await expect(batcher.submit([200])).rejects.toThrow(/queue is full/); // size 200 > 100
    const fits = batcher.submit([6]);
    calls[0].release();
    await running;
    await settle();
    calls[1].release();
    await expect(Promise.all([waiting, fits])).resolves.toEqual([['ok2', 'ok3'], ['ok6']]);
  });

  it('flushes again alone, through the same limit, each request the flush asks to retry alone', async () => {
    const seen: number[][][] = [];
    const batcher = new GroupCommit(
      async (requests: number[][]) => {
        seen.push(requests);
        if (requests.length > 1) return requests.map(() => new RetryAlone(new Error('bad value')));
        return requests[0].includes(13) ? [new FlushFailure(new Error('bad value'))] : [requests[0].map((n) => `ok${n}`)];
      },
      { maxConcurrentFlushes: 1, maxItemsPerFlush: 100 },
    );
    const first = batcher.submit([1]);
    const [a, b, c] = [batcher.submit([2]), batcher.submit([13]), batcher.submit([4])];
    await first;
    await expect(a).resolves.toEqual(['ok2']);
    await expect(b).rejects.toThrow('bad value');
    await expect(c).resolves.toEqual(['ok4']);
    // Never more than one flush at a time, and the retried requests went one by one, in order.
    expect(seen).toEqual([[[1]], [[2], [13], [4]], [[2]], [[13]], [[4]]]);
  });
});
