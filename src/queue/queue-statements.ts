import { sql, type RawBuilder } from 'kysely';
import { PreparedStatement } from '../database/prepared-statement.js';
import type { DB } from '../database/tables.js';

/**
 * A table the queue engine runs: the inbox's `messages` (one event per row) and the
 * destinations' `destination_jobs` (one delivery per row) share its columns (status of type
 * message_status, attempts, due_at, last_error, lease_token, leased_by) and differ in their key.
 */
export interface QueueTable<K extends string> {
  name: keyof DB & string;
  /** The alias every statement gives the table. */
  alias: string;
  /** The key columns, all text, in the order rows are locked (every statement on the table locks in this order, so none can deadlock with another). */
  keys: readonly K[];
}

/** Leases by their keys (one array per key column) and tokens. */
export type HeldLeases<K extends string> = Record<K, string[]> & { tokens: string[] };

/** A row renew() returns: a lease still held. */
export interface HeldToken {
  token: NonNullable<DB['messages']['lease_token']>;
}

/**
 * The statements every queue table shares, written once and built per table at boot (in the
 * manner of pg-boss's plans.ts) and compiled once (PreparedStatement): a call only binds its
 * values. Every write after the lease matches the lease token, so a worker that lost its lease
 * (it expired and another worker took the job) changes nothing.
 */
export class QueueStatements<K extends string> {
  /** The leases still held move LEASE_SECONDS ahead. Returns `token` per lease still held. */
  readonly renew: PreparedStatement<HeldLeases<K> & { leaseSeconds: number }, HeldToken>;
  /** The interrupted attempt is not counted; a job never attempted before is new again. */
  readonly release: PreparedStatement<HeldLeases<K>, never>;

  constructor(private readonly table: QueueTable<K>) {
    const { name, alias } = table;
    const [t, a] = [sql.raw(name), sql.raw(alias)];
    this.renew = new PreparedStatement((_, p) => sql<HeldToken>`${this.stillHeld(p)}
      UPDATE ${t} AS ${a} SET due_at = now() + ${p.leaseSeconds}::int * interval '1 second'
      FROM owned o WHERE ${this.matches('o')}
      RETURNING ${a}.lease_token::text AS token`);
    this.release = new PreparedStatement((_, p) => sql<never>`${this.stillHeld(p)}
      UPDATE ${t} AS ${a} SET
        status = (CASE WHEN ${a}.attempts <= 1 THEN 'received' ELSE 'failed' END)::message_status,
        attempts = greatest(${a}.attempts - 1, 0), due_at = now(), lease_token = NULL, leased_by = NULL
      FROM owned o WHERE ${this.matches('o')}`);
  }

  /**
   * The UPDATE that leases the rows of a CTE `due` (the table's keys and `exhausted`: an expired
   * lease that had used its last attempt, made dead instead), for the caller's statement to
   * embed after its own parameters. A row still `processing` had its lease expire: that
   * attempt counted, and its error says so.
   */
  leaseUpdate(
    workerId: unknown,
    leaseSeconds: unknown,
    { from = 'due', where = '', returning }: { from?: string; where?: string; returning: string },
  ): RawBuilder<unknown> {
    const a = sql.raw(this.table.alias);
    return sql`UPDATE ${sql.raw(this.table.name)} AS ${a} SET
        status = (CASE WHEN due.exhausted THEN 'dead' ELSE 'processing' END)::message_status,
        attempts = CASE WHEN due.exhausted THEN ${a}.attempts ELSE ${a}.attempts + 1 END,
        last_error = CASE WHEN ${a}.status = 'processing'
          THEN 'lease expired: ' || coalesce(${a}.leased_by, 'a worker') || ' did not finish attempt ' || ${a}.attempts
          ELSE ${a}.last_error END,
        lease_token = CASE WHEN due.exhausted THEN NULL ELSE gen_random_uuid() END,
        leased_by = CASE WHEN due.exhausted THEN NULL ELSE ${workerId}::text END,
        due_at = now() + ${leaseSeconds}::int * interval '1 second'
      FROM ${sql.raw(from)}
      WHERE ${this.matches('due')}${sql.raw(where)}
      RETURNING ${sql.raw(returning)}`;
  }

  /** `owned`: the rows whose lease is still held by the given keys and tokens, locked in key order. */
  private stillHeld(p: HeldLeases<K>): RawBuilder<unknown> {
    const { name, alias: a, keys } = this.table;
    const columns = sql.join(keys.map((key) => sql`${p[key]}::text[]`));
    const join = keys.map((key) => `${a}.${key} = r.${key}`).join(' AND ');
    const ordered = keys.map((key) => `${a}.${key}`).join(', ');
    return sql`WITH owned AS (
        SELECT ${sql.raw(ordered)} FROM unnest(${columns}, ${p.tokens}::uuid[]) AS r(${sql.raw(keys.join(', '))}, token)
        JOIN ${sql.raw(`${name} ${a}`)} ON ${sql.raw(join)} AND ${sql.raw(a)}.lease_token = r.token
        ORDER BY ${sql.raw(ordered)}
        FOR UPDATE OF ${sql.raw(a)}
      )`;
  }

  private matches(other: string): RawBuilder<unknown> {
    return sql.raw(this.table.keys.map((key) => `${this.table.alias}.${key} = ${other}.${key}`).join(' AND '));
  }
}
