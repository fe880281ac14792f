import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { DatabaseSettings } from './database.settings.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { poolConfig } from './pool-config.js';

/**
 * The generated Prisma client over the pg driver adapter (no Prisma engines needed), and the
 * pool it runs on, which the Kysely `Database` (src/database/) shares for every other statement.
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
    // and Database may use the pool before any Prisma query has run.
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

  /** Last of all shutdown hooks: the worker has drained and HTTP requests have finished. */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
