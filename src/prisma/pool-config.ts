import type { PoolConfig } from 'pg';
import type { DatabaseSettings } from './database.settings.js';

/** One place for how this service talks to PostgreSQL: fail fast when it is unreachable. */
export function poolConfig(config: DatabaseSettings): PoolConfig {
  return {
    connectionString: config.DATABASE_URL,
    max: config.DB_POOL_SIZE,
    connectionTimeoutMillis: 3000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    statement_timeout: config.DB_STATEMENT_TIMEOUT_MS,
    // A dead server never answers a statement_timeout; the client-side timeout covers it.
    query_timeout: config.DB_STATEMENT_TIMEOUT_MS + 1000,
    application_name: 'whatsapp-webhook-dedup',
  };
}
