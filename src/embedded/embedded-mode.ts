import { EMBEDDED_DATA_DIR, startEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database.js';

/**
 * Zero setup: with no DATABASE_URL, `npm start` runs on the embedded PostgreSQL in .data/.
 * Settings that suit one shared backend are filled in unless set: a small pool, and polling
 * instead of LISTEN (a notification reaches the notifying connection, not the listener).
 */
export async function useEmbeddedDatabaseIfUnconfigured(env: NodeJS.ProcessEnv): Promise<EmbeddedDatabase | null> {
  if (env.DATABASE_URL) return null;
  if (env.NODE_ENV === 'production') throw new Error('DATABASE_URL is required when NODE_ENV=production (the embedded database is for development)');
  const embedded = await startEmbeddedDatabase(env.EMBEDDED_DATA_DIR || EMBEDDED_DATA_DIR);
  env.DATABASE_URL = embedded.url;
  env.DB_POOL_SIZE ??= '4';
  env.WORKER_LISTEN ??= 'false';
  env.WORKER_POLL_MS ??= '250';
  return embedded;
}

export function embeddedNotice(embedded: EmbeddedDatabase): string {
  return (
    `no DATABASE_URL: using the embedded PostgreSQL (PGlite) with its data in ${embedded.dataDir}. ` +
    'It serves this one process; for production or several instances set DATABASE_URL=postgresql://user:pass@host:5432/db'
  );
}
