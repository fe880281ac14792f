import { Injectable } from '@nestjs/common';
import { Kysely, PostgresDialect } from 'kysely';
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
  constructor(prisma: PrismaService) {
    super({ dialect: new PostgresDialect({ pool: discardingPool(prisma.pool) }) });
  }
}
