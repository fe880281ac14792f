import { sql, type Kysely } from 'kysely';
import { PreparedStatement } from '../database/prepared-statement.js';
import type { DB } from '../database/tables.js';
import type { ClaimRow } from './claim-row.js';

/** Every statement that writes `messages` on arrival: the claim, its one-by-one fallback, a redelivery. */

/** The claim's columns, one array each (unnest makes them rows). */
export interface ClaimArrays {
  keys: string[];
  providers: string[];
  kinds: string[];
  types: string[];
  senders: (string | null)[];
  userIds: (string | null)[];
  tenants: (string | null)[];
  timestamps: (string | null)[];
  fromMe: boolean[];
  authenticated: boolean[];
  payloads: string[];
  copies: number[];
}

export function claimArrays(rows: ClaimRow[]): ClaimArrays {
  return {
    keys: rows.map((r) => r.key),
    providers: rows.map((r) => r.source),
    kinds: rows.map((r) => r.kind),
    types: rows.map((r) => r.type),
    senders: rows.map((r) => r.sender),
    userIds: rows.map((r) => r.userId),
    tenants: rows.map((r) => r.tenant),
    timestamps: rows.map((r) => r.providerTimestamp?.toISOString() ?? null),
    fromMe: rows.map((r) => r.fromMe),
    authenticated: rows.map((r) => r.authenticated),
    payloads: rows.map((r) => r.payload),
    copies: rows.map((r) => r.copies),
  };
}

/**
 * The claim (MessagesRepository.claimBatch): one INSERT of every row, a stored key taking the
 * ON CONFLICT branch. `xmax = 0` holds exactly for the rows this statement inserted.
 */
export const claimBatch = new PreparedStatement((db, a: ClaimArrays) =>
  db
    .insertInto('messages')
    .columns(['message_id', 'provider', 'kind', 'type', 'sender', 'user_id', 'tenant', 'provider_timestamp', 'from_me', 'authenticated', 'payload', 'duplicate_count', 'last_duplicate_at'])
    .expression(
      db
        .selectFrom(
          sql`unnest(${a.keys}::text[], ${a.providers}::text[], ${a.kinds}::text[], ${a.types}::text[], ${a.senders}::text[], ${a.userIds}::text[],
            ${a.tenants}::text[], ${a.timestamps}::text[], ${a.fromMe}::bool[], ${a.authenticated}::bool[], ${a.payloads}::text[], ${a.copies}::int[])`.as<'batch'>(
            sql`batch(k, p, kd, t, s, u, tn, ts, fm, au, pl, c)`,
          ),
        )
        .select([
          sql`k`.as('message_id'), sql`p::provider`.as('provider'), sql`kd::event_kind`.as('kind'), sql`t`.as('type'), sql`s`.as('sender'),
          sql`u`.as('user_id'), sql`tn`.as('tenant'), sql`ts::timestamptz`.as('provider_timestamp'), sql`fm`.as('from_me'),
          sql`au`.as('authenticated'), sql`pl::jsonb`.as('payload'), sql`c - 1`.as('duplicate_count'),
          sql`CASE WHEN c > 1 THEN now() END`.as('last_duplicate_at'),
        ]),
    )
    .onConflict((oc) =>
      oc.column('message_id').doUpdateSet({
        duplicate_count: sql`messages.duplicate_count + excluded.duplicate_count + 1`,
        last_duplicate_at: sql`now()`,
      }),
    )
    .returning(['message_id', sql<boolean>`(xmax = 0)`.as('inserted')]),
);

/** One row of the one-by-one fallback, inserted under a savepoint by its caller. */
export function insertOne(db: Kysely<DB>, row: ClaimRow) {
  return db.insertInto('messages').values({
    message_id: row.key,
    provider: row.source,
    kind: row.kind,
    type: row.type,
    sender: row.sender,
    user_id: row.userId,
    tenant: row.tenant,
    provider_timestamp: row.providerTimestamp?.toISOString() ?? null,
    from_me: row.fromMe,
    authenticated: row.authenticated,
    payload: sql`${row.payload}::jsonb`,
    duplicate_count: row.copies - 1,
    last_duplicate_at: row.copies > 1 ? sql`now()` : null,
  });
}

/** A key already stored arrived `copies` more times. */
export function recordRedelivery(db: Kysely<DB>, key: string, copies: number) {
  return db
    .updateTable('messages')
    .set((eb) => ({ duplicate_count: eb('duplicate_count', '+', copies), last_duplicate_at: sql`now()` }))
    .where('message_id', '=', key);
}

/**
 * Deletes at most `limit` finished events of one status that nothing has touched for `days`
 * days, with their steps (cascade); RetentionRepository.purgeFinishedEvents says why each
 * condition is there. An event with an unfinished delivery, or a dead one younger than
 * `deadDays`, is kept.
 */
export function purgeFinished(status: 'processed' | 'dead', days: number, limit: number, deadDays: number) {
  return sql`
    WITH doomed AS MATERIALIZED (
      SELECT message_id FROM messages m
      WHERE status = ${status}::message_status
        AND received_at < now() - make_interval(days => ${days}::int)
        AND greatest(received_at, last_duplicate_at, processed_at, due_at) < now() - make_interval(days => ${days}::int)
        -- An event's deliveries to destinations are its work too: kept while one is unfinished, and
        -- while a dead one may still be replayed (DEAD_RETENTION_DAYS after its last attempt).
        AND NOT EXISTS (
          SELECT 1 FROM destination_jobs j WHERE j.message_id = m.message_id AND j.status <> 'processed'
            AND (j.status <> 'dead' OR j.due_at >= now() - make_interval(days => ${deadDays}::int)))
      LIMIT ${limit}::int
      FOR UPDATE SKIP LOCKED
    )
    DELETE FROM messages AS gone USING doomed WHERE gone.message_id = doomed.message_id`;
}
