import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startEmbeddedDatabase } from '../../src/embedded/embedded-database.js';
import { embeddedTemplate } from './embedded-template.js';

/**
 * The PostgreSQL the suite runs against: TEST_DATABASE_URL, else DATABASE_URL (each test file
 * gets a database of its own there, created fresh and dropped after); with neither set, every
 * test file gets an embedded PostgreSQL (PGlite) of its own, in memory, copied from the empty
 * cluster the suite's globalSetup made (test/support/embedded-template.ts).
 */
const CONFIGURED_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
export const EMBEDDED = CONFIGURED_URL === undefined;

/**
 * PGlite is one backend shared by every connection: what needs several real sessions
 * (advisory locks held by one session against another, LISTEN in one session hearing NOTIFY
 * from another) only runs on PostgreSQL. Such tests use these instead of describe/it.
 */
export const describeOnPostgres: typeof describe = EMBEDDED ? (describe.skip as typeof describe) : describe;
export const itOnPostgres: typeof it = EMBEDDED ? (it.skip as typeof it) : it;
if (EMBEDDED) {
  console.info('No TEST_DATABASE_URL or DATABASE_URL: running on the embedded PostgreSQL (PGlite); tests that need several real sessions are skipped.');
}

export interface TestDatabase {
  url: string;
  name: string;
  /** A short-lived client for assertions and setup. */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (EMBEDDED) {
    const embedded = await startEmbeddedDatabase(undefined, embeddedTemplate());
    return withQueries(embedded.url, 'postgres', () => embedded.stop());
  }
  const adminUrl = CONFIGURED_URL!;
  const name = `wdd_test_${randomBytes(5).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  return withQueries(withDatabase(adminUrl, name), name, () =>
    admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  );
}

function withQueries(url: string, name: string, destroy: () => Promise<void>): TestDatabase {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // drop() forces connections closed that pool.end() has not finished closing yet.
  pool.on('error', () => undefined);
  return {
    url,
    name,
    async query(sql, params) {
      return (await pool.query(sql, params as unknown[])).rows;
    },
    async drop() {
      await pool.end();
      await destroy();
    },
  };
}
