import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DatabaseSettings } from '../prisma/database.settings.js';
import { DEFAULT_MIGRATIONS_DIR } from './migration-files.js';
import { applyMigrations } from './migrator.js';

/** Brings the database up to date before the service takes traffic (MIGRATE_ON_START). */
@Injectable()
export class MigrationsService implements OnModuleInit {
  private readonly logger = new Logger(MigrationsService.name);

  constructor(private readonly config: DatabaseSettings) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.MIGRATE_ON_START) {
      this.logger.log('MIGRATE_ON_START=false: not applying migrations');
      return;
    }
    const applied = await applyMigrations(this.config.DATABASE_URL, this.logger, DEFAULT_MIGRATIONS_DIR, {
      lockTimeoutMs: this.config.MIGRATION_LOCK_TIMEOUT_MS,
    });
    this.logger.log(applied.length ? `applied ${applied.length} migration(s)` : 'database schema is up to date');
  }
}
