import pg from 'pg';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../src/embedded/embedded-database.js';

/**
 * The embedded database is one PostgreSQL session behind every connection. pglite-socket
 * queues protocol messages one by one, so two connections' Parse/Bind/Execute/Sync could
 * interleave and one Bind met the other's unnamed statement (electric-sql/pglite#1046): a
 * large claim failed with "bind message supplies 12 parameters, but prepared statement requires 4".
 */
describe('the embedded database with several connections', () => {
  let db: EmbeddedDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await startEmbeddedDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.stop();
  });

  it('keeps each extended-protocol batch together: concurrent parameterized statements of different shapes all succeed', async () => {
    // Large parameters arrive in many socket reads, which is what opened the window between Parse and Bind.
    const big = Array.from({ length: 20_000 }, (_, i) => `value-${i}`);
    const wide = (i: number) => pool.query<{ n: number }>('SELECT cardinality($1::text[]) + $2::int + $3::int AS n', [big, i, 1]);
    const narrow = (i: number) => pool.query<{ n: number }>('SELECT $1::int AS n', [i]);
    const runs = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? wide(i).then((r) => r.rows[0].n - 20_001) : narrow(i).then((r) => r.rows[0].n)));
    expect(await Promise.all(runs)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  }, 60_000);

  it('still rolls back a transaction whose connection went away, and serves the others', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('CREATE TABLE IF NOT EXISTS t (n int)');
    await client.query('BEGIN');
    await client.query('INSERT INTO t VALUES ($1)', [1]);
    await client.end();
    expect((await pool.query('SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(0);
  });
});
