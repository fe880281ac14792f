/**
 * Group commit, for claims and for the worker's step records. Requests that arrive while the
 * database is busy wait in a queue and go out together in the next flush, so under load many
 * requests share one statement and one WAL flush, while a lone request is flushed at once (no
 * timer, no added latency when idle). A request's items always travel in one flush: its answer
 * is all-stored or all-failed.
 * A flush may fail as a whole (it throws) or per request (a FlushFailure in that request's place).
 */
export class GroupCommit<Item, Result> {
  private readonly queue: Array<{ items: Item[]; resolve: (r: Result[]) => void; reject: (e: unknown) => void }> = [];
  private inFlight = 0;

  constructor(
    private readonly flush: (requests: Item[][]) => Promise<Array<Result[] | FlushFailure>>,
    private readonly maxConcurrentFlushes: number,
    private readonly maxItemsPerFlush: number,
  ) {}

  submit(items: Item[]): Promise<Result[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ items, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxConcurrentFlushes && this.queue.length > 0) {
      const batch = [this.queue.shift()!];
      let size = batch[0].items.length;
      while (this.queue.length > 0 && size + this.queue[0].items.length <= this.maxItemsPerFlush) {
        const next = this.queue.shift()!;
        size += next.items.length;
        batch.push(next);
      }
      this.inFlight++;
      this.flush(batch.map((r) => r.items))
        .then(
          (results) =>
            batch.forEach((r, i) => {
              const result = results[i];
              if (result instanceof FlushFailure) r.reject(result.cause);
              else r.resolve(result);
            }),
          (error) => batch.forEach((r) => r.reject(error)),
        )
        .finally(() => {
          this.inFlight--;
          this.pump();
        });
    }
  }
}

/** One request's failure inside a flush whose other requests succeeded. */
export class FlushFailure {
  constructor(readonly cause: unknown) {}
}
