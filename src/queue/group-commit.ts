/**
 * Group commit, for claims and for the worker's step records. Requests that arrive while the
 * database is busy wait in a queue and go out together in the next flush, so under load many
 * requests share one statement and one WAL flush, while a lone request is flushed at once (no
 * timer, no added latency when idle). A request's items always travel in one flush: its answer
 * is all-stored or all-failed.
 *
 * A flush may fail as a whole (it throws) or per request (a FlushFailure in that request's
 * place); `RetryAlone` in a request's place queues it again, to be flushed on its own, under
 * the same concurrency limit (never as a burst beside it).
 *
 * The queue is bounded by items and by size: a request that would overflow it is refused at
 * once (QueueFullError), so overload sheds work instead of queueing it without end.
 */
export interface GroupCommitLimits<Item> {
  maxConcurrentFlushes: number;
  maxItemsPerFlush: number;
  /** An item's weight for the size limits (e.g. its payload's length); 0 when unset. */
  sizeOf?: (item: Item) => number;
  maxSizePerFlush?: number;
  maxQueuedItems?: number;
  maxQueuedSize?: number;
}

interface Request<Item, Result> {
  items: Item[];
  size: number;
  alone: boolean;
  resolve: (r: Result[]) => void;
  reject: (e: unknown) => void;
}

export class GroupCommit<Item, Result> {
  private readonly queue: Request<Item, Result>[] = [];
  private queuedItems = 0;
  private queuedSize = 0;
  private inFlight = 0;

  constructor(
    private readonly flush: (requests: Item[][]) => Promise<Array<Result[] | FlushFailure>>,
    private readonly limits: GroupCommitLimits<Item>,
  ) {}

  submit(items: Item[]): Promise<Result[]> {
    const size = this.limits.sizeOf ? items.reduce((sum, item) => sum + this.limits.sizeOf!(item), 0) : 0;
    const { maxQueuedItems = Infinity, maxQueuedSize = Infinity } = this.limits;
    // Only a request that has to wait counts against the bound: a lone request is flushed at once.
    const mustWait = this.inFlight >= this.limits.maxConcurrentFlushes;
    if (mustWait && (this.queuedItems + items.length > maxQueuedItems || this.queuedSize + size > maxQueuedSize)) {
      return Promise.reject(new QueueFullError(this.queuedItems, this.queuedSize));
    }
    return new Promise((resolve, reject) => {
      this.enqueue({ items, size, alone: false, resolve, reject });
      this.pump();
    });
  }

  private enqueue(request: Request<Item, Result>, front = false): void {
    if (front) this.queue.unshift(request);
    else this.queue.push(request);
    this.queuedItems += request.items.length;
    this.queuedSize += request.size;
  }

  private dequeue(): Request<Item, Result> {
    const request = this.queue.shift()!;
    this.queuedItems -= request.items.length;
    this.queuedSize -= request.size;
    return request;
  }

  /** Whether the next queued request may join a flush of `items` items and `size` size. */
  private fits(items: number, size: number): boolean {
    const next = this.queue[0];
    if (next === undefined || next.alone) return false;
    return items + next.items.length <= this.limits.maxItemsPerFlush && size + next.size <= (this.limits.maxSizePerFlush ?? Infinity);
  }

  private pump(): void {
    while (this.inFlight < this.limits.maxConcurrentFlushes && this.queue.length > 0) {
      const batch = [this.dequeue()];
      let items = batch[0].items.length;
      let size = batch[0].size;
      while (!batch[0].alone && this.fits(items, size)) {
        const next = this.dequeue();
        items += next.items.length;
        size += next.size;
        batch.push(next);
      }
      this.inFlight++;
      this.flush(batch.map((r) => r.items))
        .then(
          (results) => this.settle(batch, results),
          (error) => batch.forEach((r) => r.reject(error)),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }

  private settle(batch: Request<Item, Result>[], results: Array<Result[] | FlushFailure>): void {
    const again: Request<Item, Result>[] = [];
    batch.forEach((request, i) => {
      const result = results[i];
      if (result instanceof RetryAlone && !request.alone) again.push({ ...request, alone: true });
      else if (result instanceof FlushFailure) request.reject(result.cause);
      else request.resolve(result);
    });
    // Ahead of newer requests, in their original order.
    for (const request of again.reverse()) this.enqueue(request, true);
  }
}

/** One request's failure inside a flush whose other requests succeeded. */
export class FlushFailure {
  constructor(readonly cause: unknown) {}
}

/** Flush this request again, on its own (it was in a batch that failed for a reason one of them may carry). */
export class RetryAlone extends FlushFailure {}

/** The queue in front of the database is full: shed the request (the caller answers 503). */
export class QueueFullError extends Error {
  constructor(
    readonly queuedItems: number,
    readonly queuedSize: number,
  ) {
    super(`the claim queue is full (${queuedItems} events, ${Math.round(queuedSize / 1024)} KiB waiting)`);
    this.name = 'QueueFullError';
  }
}

/**
 * The limits of the workers' outcome writes (step records, failures, deliveries' outcomes):
 * they share statements and a fifth of the pool, so processing (even a downstream outage failing
 * every attempt at once) cannot starve the acknowledgements of connections.
 */
export function workerWriteLimits<Item>(poolSize: number): GroupCommitLimits<Item> {
  return { maxConcurrentFlushes: Math.max(1, Math.floor(poolSize / 5)), maxItemsPerFlush: 1000 };
}
