/**
 * A table the queue engine runs: the inbox's `messages` (one event per row) and the
 * destinations' `destination_jobs` (one delivery per row) share its columns (status of type
 * message_status, attempts, due_at, last_error, lease_token, leased_by) and differ in their key.
 */
export interface QueueTable {
  name: string;
  /** The alias every statement gives the table. */
  alias: string;
  /** The key columns, all text, in the order rows are locked (every statement on the table locks in this order, so none can deadlock with another). */
  keys: readonly string[];
}

/**
 * The statements every queue table shares, written once and built per table at boot (in the
 * manner of pg-boss's plans.ts): plain SQL text with `$n` placeholders, sent with bound values
 * through PrismaService.driverStatement. The text is fixed per table, so a call builds only its
 * values. Every write after the lease matches the lease token, so a worker that lost its lease
 * (it expired and another worker took the job) changes nothing.
 */
export class QueueStatements {
  /** `$1…$k` the keys' columns (text[]), `$k+1` the lease tokens (uuid[]), `$k+2` LEASE_SECONDS. Returns `token` per lease still held. */
  readonly renew: string;
  /** `$1…$k` the keys' columns, `$k+1` the lease tokens. */
  readonly release: string;

  constructor(private readonly table: QueueTable) {
    const { name, alias: a } = table;
    const k = table.keys.length;
    this.renew = `${this.stillHeld()}
      UPDATE ${name} AS ${a} SET due_at = now() + $${k + 2}::int * interval '1 second'
      FROM owned o WHERE ${this.matches('o')}
      RETURNING ${a}.lease_token::text AS token`;
    // The interrupted attempt is not counted; a job never attempted before is new again.
    this.release = `${this.stillHeld()}
      UPDATE ${name} AS ${a} SET
        status = (CASE WHEN ${a}.attempts <= 1 THEN 'received' ELSE 'failed' END)::message_status,
        attempts = greatest(${a}.attempts - 1, 0), due_at = now(), lease_token = NULL, leased_by = NULL
      FROM owned o WHERE ${this.matches('o')}`;
  }

  /**
   * The UPDATE that leases the rows of a CTE `due` (the table's keys and `exhausted`: an expired
   * lease that had used its last attempt, made dead instead). The caller's statement uses
   * `$1…$first-1`; the worker's id is `$first`, LEASE_SECONDS `$first+1`. A row still
   * `processing` had its lease expire: that attempt counted, and its error says so.
   */
  leaseUpdate(first: number, { from = 'due', where = '', returning }: { from?: string; where?: string; returning: string }): string {
    const { name, alias: a } = this.table;
    return `UPDATE ${name} AS ${a} SET
        status = (CASE WHEN due.exhausted THEN 'dead' ELSE 'processing' END)::message_status,
        attempts = CASE WHEN due.exhausted THEN ${a}.attempts ELSE ${a}.attempts + 1 END,
        last_error = CASE WHEN ${a}.status = 'processing'
          THEN 'lease expired: ' || coalesce(${a}.leased_by, 'a worker') || ' did not finish attempt ' || ${a}.attempts
          ELSE ${a}.last_error END,
        lease_token = CASE WHEN due.exhausted THEN NULL ELSE gen_random_uuid() END,
        leased_by = CASE WHEN due.exhausted THEN NULL ELSE $${first}::text END,
        due_at = now() + $${first + 1}::int * interval '1 second'
      FROM ${from}
      WHERE ${this.matches('due')}${where}
      RETURNING ${returning}`;
  }

  /** `owned`: the rows whose lease is still held by the given keys and tokens, locked in key order. */
  private stillHeld(): string {
    const { name, alias: a, keys } = this.table;
    const columns = keys.map((key, i) => `$${i + 1}::text[]`).join(', ');
    const join = keys.map((key) => `${a}.${key} = r.${key}`).join(' AND ');
    return `WITH owned AS (
        SELECT ${keys.map((key) => `${a}.${key}`).join(', ')} FROM unnest(${columns}, $${keys.length + 1}::uuid[]) AS r(${keys.join(', ')}, token)
        JOIN ${name} ${a} ON ${join} AND ${a}.lease_token = r.token
        ORDER BY ${keys.map((key) => `${a}.${key}`).join(', ')}
        FOR UPDATE OF ${a}
      )`;
  }

  private matches(other: string): string {
    return this.table.keys.map((key) => `${this.table.alias}.${key} = ${other}.${key}`).join(' AND ');
  }
}
