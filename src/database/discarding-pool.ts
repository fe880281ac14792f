import type { PostgresPool } from 'kysely';
import type pg from 'pg';

/**
 * The pool as Kysely sees it: connections checked out of pg's pool, and released with the
 * error of a statement the server never answered (a client-side query_timeout, a lost
 * connection), so that pg discards that connection as its own `pool.query` does. Kysely
 * releases without one, and a connection whose statement still waits for an answer would go
 * back to the pool and make the next statement on it wait too.
 */
export function discardingPool(pool: pg.Pool): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      const { query, release } = client;
      const ownQuery = Object.prototype.hasOwnProperty.call(client, 'query');
      let lost: Error | undefined;
      client.query = function (this: pg.PoolClient, ...args: unknown[]) {
        const result = (query as (...a: unknown[]) => unknown).apply(this, args);
        if (result instanceof Promise) result.catch((error: unknown) => (lost ??= unanswered(error)));
        return result;
      } as typeof client.query;
      client.release = (error?: Error | boolean) => {
        if (ownQuery) client.query = query;
        else delete (client as Partial<pg.PoolClient>).query;
        client.release = release;
        release.call(client, error ?? lost);
      };
      return client;
    },
    end: () => pool.end(),
    options: pool.options,
  };
}

/** The error when the server did not answer it (pg's DatabaseError carries the server's severity). */
function unanswered(error: unknown): Error | undefined {
  return error instanceof Error && !('severity' in error) ? error : undefined;
}
