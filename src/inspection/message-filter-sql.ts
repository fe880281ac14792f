import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import { InvalidQueryError } from '../common/domain-errors.js';
import { microsToIsoText, parseIsoDateTime } from '../common/iso-date-time.js';
import type { DestinationJobs, Messages } from '../database/tables.js';
import type { MessageFilter } from './message-views.js';
import type { PageCursor } from './page-cursor.js';

/** A condition on `messages m` (and, in the queries that join it, `destination_jobs j`). */
export type Condition = Expression<SqlBool>;

/** Typed conditions on `messages m` and `destination_jobs j`, usable in any statement that names them so. */
export const m = expressionBuilder<{ m: Messages; j: DestinationJobs }, 'm' | 'j'>();

/**
 * GET /messages' filters (but status, whose table depends on the query) as conditions on
 * `messages m`, shared by the listing and the bulk replay so both select the same events.
 * since/until must be exact UTC text already (InspectionService's instantText).
 */
export function eventConditions(filter: Omit<MessageFilter, 'status'>): Condition[] {
  const conditions: Condition[] = [];
  if (filter.provider) conditions.push(m('m.provider', '=', filter.provider));
  if (filter.kind) conditions.push(m('m.kind', '=', filter.kind));
  if (filter.type) conditions.push(m('m.type', '=', filter.type));
  // Either identity of the other party: two index scans (sender, user_id) OR-ed.
  if (filter.from) conditions.push(m.or([m('m.sender', '=', filter.from), m('m.user_id', '=', filter.from)]));
  if (filter.tenant) conditions.push(m('m.tenant', '=', filter.tenant));
  if (filter.since) conditions.push(m('m.received_at', '>=', instant(filter.since)));
  if (filter.until) conditions.push(m('m.received_at', '<', instant(filter.until)));
  return conditions;
}

/** Exact UTC text with microseconds, read by PostgreSQL (a JavaScript Date would cut it to milliseconds). */
const instant = (text: string) => sql<Date>`${text}::timestamptz`;

/** The event's (or with `j`, its delivery's) status is one of `statuses`. */
export function statusIn(table: 'm' | 'j', statuses: readonly Messages['status'][] | readonly string[]): Condition {
  return sql<SqlBool>`${sql.ref(`${table}.status`)} = ANY(${statuses}::message_status[])`;
}

/**
 * Rows strictly before (`<`, newest-first pages) or after (`>`, oldest-first batches) a
 * position in (received_at, message_id) order, the order of messages_received_at_message_id_idx.
 */
export function keysetCondition(position: PageCursor, direction: '<' | '>'): Condition {
  return sql<SqlBool>`(m.received_at, m.message_id) ${sql.raw(direction)}
    ('epoch'::timestamptz + ${position.receivedAtMicros}::bigint * interval '1 microsecond', ${position.id}::varchar)`;
}

/**
 * The instant as UTC text with microseconds, which PostgreSQL reads exactly in any session time
 * zone (the query's own offset may carry more digits than it keeps). The query DTO already
 * refused anything else; this keeps the service safe without it.
 */
export function instantText(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const micros = parseIsoDateTime(value, { complete: true });
  if (micros === null) throw new InvalidQueryError(`${name} must be an ISO 8601 date-time with an offset or Z`);
  return microsToIsoText(micros);
}
