import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { DatabaseSettings } from './database.settings.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { poolConfig } from './pool-config.js';
import { positional } from './positional-sql.js';

/**
 * The generated Prisma client over the pg driver adapter (no Prisma engines needed), and
 * `driverQuery` for the few statements that run per delivery and per event, on the same pool.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  /** The one pool of this process: Prisma's adapter and the Kysely `Database` both use it. */
  readonly pool: pg.Pool;

  constructor(config: DatabaseSettings) {
    const logger = new Logger(PrismaService.name);
    const pool = new pg.Pool(poolConfig(config));
    // Without these handlers an idle connection dropped by the server crashes the process. The
    // pool's is ours, not the adapter's: the adapter listens only once Prisma has connected,
    // and driverQuery may use the pool before any Prisma query has run.
    pool.on('error', (err) => logger.warn(`database pool error: ${err.message}`));
    // A connection lost while checked out (Kysely's statements and transactions check one out)
    // emits 'error' on its client, which would otherwise crash the process: the statement it
    // ran fails with that error anyway, and the pool discards the client when it is released.
    pool.on('connect', (client) => client.on('error', () => undefined));
    super({
      adapter: new PrismaPg(pool, {
        onConnectionError: (err) => logger.warn(`database connection error: ${err.message}`),
        disposeExternalPool: true,
      }),
    });
    this.pool = pool;
  }

  /**
   * One statement sent by the pg driver itself, on the pool Prisma uses: the claim and the work
   * queue's statements, run thousands of times a second. There a Prisma raw query costs about
   * twice the driver's CPU (bench/README.md, "Where the time goes"), most of the service's
   * database CPU. A tagged template as `$queryRaw` is: every `${value}` is a bound parameter,
   * never SQL text. Rows come parsed by pg: timestamptz as Date, jsonb as objects, int8 as string.
   */
  async driverQuery<T>(strings: TemplateStringsArray, ...values: unknown[]): Promise<T[]> {
    const result = await this.pool.query(positional(strings), values);
    return result.rows as T[];
  }

  /** One statement whose text was built once (src/queue/queue-statements.ts), with its bound values, on the same pool. */
  driverStatement<T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<T>> {
    return this.pool.query<T>(text, values);
  }

  /** Last of all shutdown hooks: the worker has drained and HTTP requests have finished. */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
