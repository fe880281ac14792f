import { InvalidQueryError } from '../common/domain-errors.js';
import { microsToIsoText, parseIsoDateTime } from '../common/iso-date-time.js';
import { Prisma } from '../generated/prisma/client.js';
import type { MessageFilter } from './message-views.js';
import type { PageCursor } from './page-cursor.js';

/**
 * GET /messages' filters (but status, whose table depends on the query) as SQL conditions on
 * `messages m`, shared by the listing and the bulk replay so both select the same events.
 * since/until must be exact UTC text already (InspectionService's instantText).
 */
export function eventConditions(filter: Omit<MessageFilter, 'status'>): Prisma.Sql[] {
  const conditions: Prisma.Sql[] = [];
  if (filter.provider) conditions.push(Prisma.sql`m.provider = ${filter.provider}::provider`);
  if (filter.kind) conditions.push(Prisma.sql`m.kind = ${filter.kind}::event_kind`);
  if (filter.type) conditions.push(Prisma.sql`m.type = ${filter.type}`);
  // Either identity of the other party: two index scans (sender, user_id) OR-ed.
  if (filter.from) conditions.push(Prisma.sql`(m.sender = ${filter.from} OR m.user_id = ${filter.from})`);
  if (filter.tenant) conditions.push(Prisma.sql`m.tenant = ${filter.tenant}`);
  if (filter.since) conditions.push(Prisma.sql`m.received_at >= ${filter.since}::timestamptz`);
  if (filter.until) conditions.push(Prisma.sql`m.received_at < ${filter.until}::timestamptz`);
  return conditions;
}

/**
 * Rows strictly before (`<`, newest-first pages) or after (`>`, oldest-first batches) a
 * position in (received_at, message_id) order, the order of messages_received_at_message_id_idx.
 */
export function keysetCondition(position: PageCursor, direction: '<' | '>'): Prisma.Sql {
  return Prisma.sql`(m.received_at, m.message_id) ${Prisma.raw(direction)}
    ('epoch'::timestamptz + ${position.receivedAtMicros}::bigint * interval '1 microsecond', ${position.id}::varchar)`;
}

export function whereAll(conditions: Prisma.Sql[]): Prisma.Sql {
  return conditions.length > 0 ? Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}` : Prisma.empty;
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
