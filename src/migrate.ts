// `npm run migrate`: applies pending migrations and exits, for a release step that runs
// before the service starts (equivalent to `prisma migrate deploy` where its engine runs).
import { Logger } from '@nestjs/common';
import { loadSettings } from './config/load-settings.js';
import { DEFAULT_MIGRATIONS_DIR } from './migrations/migration-files.js';
import { applyMigrations } from './migrations/migrator.js';
import { DatabaseSettings } from './prisma/database.settings.js';
import { SETTINGS } from './settings.js';

const logger = new Logger('migrate');
try {
  const config = loadSettings(process.env, SETTINGS).get(DatabaseSettings);
  const applied = await applyMigrations(config.DATABASE_URL, logger, DEFAULT_MIGRATIONS_DIR, {
    lockTimeoutMs: config.MIGRATION_LOCK_TIMEOUT_MS,
  });
  logger.log(applied.length ? `applied: ${applied.join(', ')}` : 'nothing to apply');
} catch (error) {
  logger.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
