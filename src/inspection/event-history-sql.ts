import { Prisma } from '../generated/prisma/client.js';

/**
 * A CTE that records, in the event's history (its timeline), a replay of every row the CTE
 * `from` returned (it must return message_id, and destination for 'each row’s'): a whole event's (from its first incomplete step,
 * or from the start) or one delivery's. Appended to the replay statements, so it commits with them.
 */
export function logReplays(from: string, how: { fromStart: boolean; destination: string | null | 'each row’s' }): Prisma.Sql {
  const kind = how.fromStart ? 'replay-start' : 'replay';
  const destination = how.destination === 'each row’s' ? Prisma.raw('destination') : Prisma.sql`${how.destination}::text`;
  return Prisma.sql`, logged_replays AS (
    INSERT INTO event_history (message_id, kind, destination)
    SELECT message_id, ${kind}, ${destination} FROM ${Prisma.raw(from)})`;
}
