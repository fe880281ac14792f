import { jest } from '@jest/globals';
import type pg from 'pg';
import { discardingPool } from './discarding-pool.js';

/** A pg pool whose one client answers each query with what `answer` gives, recording how it was released. */
function fakePool(answer: () => Promise<unknown>) {
  const released: unknown[] = [];
  const client = { query: jest.fn(answer), release: (error?: unknown) => released.push(error ?? null) };
  const pool = { connect: async () => client, end: async () => undefined, options: {} } as unknown as pg.Pool;
  return { pool: discardingPool(pool), client, released };
}

describe('discardingPool', () => {
  it('releases a connection whose statement got no answer with that error, so pg discards it', async () => {
    const timeout = new Error('Query read timeout');
    const { pool, released } = fakePool(() => Promise.reject(timeout));
    const client = (await pool.connect()) as unknown as pg.PoolClient;
    await expect(client.query('SELECT 1')).rejects.toBe(timeout);
    client.release();
    expect(released).toEqual([timeout]);
  });

  it("keeps a connection whose statement the server refused (it answered: the connection is fine)", async () => {
    const refused = Object.assign(new Error('duplicate key'), { severity: 'ERROR', code: '23505' });
    const { pool, released } = fakePool(() => Promise.reject(refused));
    const client = (await pool.connect()) as unknown as pg.PoolClient;
    await expect(client.query('INSERT')).rejects.toBe(refused);
    client.release();
    expect(released).toEqual([null]);
  });

  it('starts each checkout clean', async () => {
    let fail = true;
    const { pool, released } = fakePool(() => (fail ? Promise.reject(new Error('Connection terminated')) : Promise.resolve({ rows: [] })));
    const first = (await pool.connect()) as unknown as pg.PoolClient;
    await first.query('SELECT 1').catch(() => undefined);
    first.release();
    fail = false;
    const second = (await pool.connect()) as unknown as pg.PoolClient;
    await second.query('SELECT 1');
    second.release();
    expect(released.map((e) => (e === null ? null : (e as Error).message))).toEqual(['Connection terminated', null]);
  });
});
