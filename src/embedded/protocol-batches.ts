import type { PGlite } from '@electric-sql/pglite';

/** Frontend messages that end an extended-protocol batch (Sync) or are a batch of their own (Query, Terminate). */
const BATCH_ENDS: ReadonlySet<number> = new Set(['S', 'Q', 'X'].map((c) => c.charCodeAt(0)));
/** Parse, Bind, Describe, Execute, Close, Flush: the backend holds the unnamed statement and portal until Sync. */
const BATCH_PARTS: ReadonlySet<number> = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

/**
 * PGlite as pglite-socket should see it: one backend serves every connection, and the socket
 * server queues their messages one at a time, keeping a connection's messages together only
 * while `isInTransaction()`. Between Parse and Sync no transaction is open, so two connections'
 * batches could interleave and one Bind met the other's unnamed statement
 * (electric-sql/pglite#1046, still open in pglite-socket 0.2.17). Reporting an open batch as
 * "in a transaction" makes the queue serve that connection until its Sync.
 */
export function withProtocolBatches(db: PGlite): PGlite {
  let batchOpen = false;
  return new Proxy(db, {
    get(target, property) {
      if (property === 'isInTransaction') return () => batchOpen || target.isInTransaction();
      if (property === 'execProtocolRawStream') {
        return async (message: Uint8Array, options: Parameters<PGlite['execProtocolRawStream']>[1]) => {
          const type = message[0];
          if (BATCH_PARTS.has(type)) batchOpen = true;
          try {
            return await target.execProtocolRawStream(message, options);
          } finally {
            if (BATCH_ENDS.has(type)) batchOpen = false;
          }
        };
      }
      if (property === 'exec') {
        // pglite-socket rolls back what a vanished connection left open: that ends its batch too.
        return (query: string, ...rest: unknown[]) => {
          if (/^\s*ROLLBACK\s*$/i.test(query)) batchOpen = false;
          return (target.exec as (q: string, ...r: unknown[]) => unknown)(query, ...rest);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
