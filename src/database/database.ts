import { Injectable } from '@nestjs/common';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import type pg from 'pg';
import { PrismaService } from '../prisma/prisma.service.js';
import { discardingPool } from './discarding-pool.js';
import type { DB } from './tables.js';

/**
 * Typed SQL (Kysely) over the pool PrismaService owns: one pool per process, so a statement
 * sent here and one sent by Prisma share its connections and its limit. Row types come from
 * ./tables.ts, generated from the migrated schema. Prisma stays the schema and migration tool.
 *
 * A transaction is either Prisma's or Kysely's, never both: each takes its own connection.
 * Never `destroy()` this: the pool is PrismaService's, ended at its shutdown.
 */
@Injectable()
export class Database extends Kysely<DB> {
  private readonly pool: pg.Pool;

  constructor(prisma: PrismaService) {
    super({ dialect: new PostgresDialect({ pool: discardingPool(prisma.pool) }) });
    this.pool = prisma.pool;
  }

  /**
   * Runs a statement compiled once (PreparedStatement) with `pool.query`, not through Kysely's
   * executor: the claim runs per webhook request and the queues' statements per event, and
   * the executor's checkout, wrapping and result transformation cost about 5 µs of CPU per
   * webhook request there (bench/README.md, "Where the time goes"). Outside a transaction only.
   */
  async run<R>(statement: CompiledQuery<R>): Promise<{ rows: R[]; numAffectedRows: bigint }> {
    const result = await this.pool.query(statement.sql, statement.parameters as unknown[]);
    return { rows: result.rows as R[], numAffectedRows: BigInt(result.rowCount ?? 0) };
  }
}
