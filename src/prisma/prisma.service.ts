import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { AppConfig } from '../config/app-config.js';
import { PrismaClient } from '../generated/prisma/client.js';
import { poolConfig } from './pool-config.js';

/** The generated Prisma client over the pg driver adapter (no Prisma engines needed). */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(config: AppConfig) {
    const logger = new Logger(PrismaService.name);
    super({
      adapter: new PrismaPg(poolConfig(config), {
        // Without these handlers an idle connection dropped by the server crashes the process.
        onPoolError: (err) => logger.warn(`database pool error: ${err.message}`),
        onConnectionError: (err) => logger.warn(`database connection error: ${err.message}`),
      }),
    });
  }

  /** Last of all shutdown hooks: the worker has drained and HTTP requests have finished. */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
