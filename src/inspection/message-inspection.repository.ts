import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import { logReplays } from './event-history-sql.js';
import type { HistoryRow } from './event-timeline.js';
import { eventConditions, keysetCondition, whereAll } from './message-filter-sql.js';
import type { MessageFilter, MessageStatus } from './message-views.js';
import type { PageCursor } from './page-cursor.js';

export interface MessageRow {
  message_id: string;
  provider: string;
  kind: string;
  type: string;
  sender: string | null;
  user_id: string | null;
  tenant: string | null;
  from_me: boolean;
  authenticated: boolean;
  replays: number;
  provider_timestamp: Date | null;
  status: MessageStatus;
  attempts: number;
  last_error: string | null;
  duplicate_count: number;
  received_at: Date;
  last_duplicate_at: Date | null;
  processed_at: Date | null;
  received_at_us: string;
}

export interface DestinationRow {
  destination: string;
  status: MessageStatus;
  attempts: number;
  last_error: string | null;
  result: unknown;
  due_at: string;
  completed_at: string | null;
  replay: number;
  broke_order: boolean;
}

export interface StepRow {
  step: string;
  attempt: number;
  completed_at: string;
  result: unknown;
}

export type MessageDetailRow = MessageRow & { payload: unknown; steps: StepRow[]; destinations: DestinationRow[]; history: HistoryRow[] };

/** The most recent history rows shown: an event replayed or failing for weeks would otherwise grow without bound. */
const HISTORY_LIMIT = 500;

const SUMMARY_COLUMNS = Prisma.sql`message_id, provider::text, kind::text, type, sender, user_id, tenant, from_me, authenticated, replays, provider_timestamp, status::text,
  attempts, last_error, duplicate_count, received_at, last_duplicate_at, processed_at,
  (extract(epoch FROM received_at) * 1000000)::bigint::text AS received_at_us`;

/** The SQL behind the operator API: read-only views of the inbox, and replay. */
@Injectable()
export class MessageInspectionRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Newest first by (received_at, message_id), continuing strictly after `after`: keyset
   * pagination, so rows arriving while a client pages (all newer than its cursor) neither
   * repeat nor shift the pages. Reads one row more than `limit` to know whether more follow.
   */
  list(filter: MessageFilter, limit: number, after: PageCursor | null): Promise<MessageRow[]> {
    const conditions = eventConditions(filter);
    if (filter.destination !== undefined) {
      // A delivery's status, not the event's: an event whose delivery died is itself processed.
      const status = filter.status === undefined ? Prisma.empty : Prisma.sql`AND j.status = ${filter.status}::message_status`;
      conditions.push(Prisma.sql`EXISTS (SELECT 1 FROM destination_jobs j WHERE j.message_id = m.message_id AND j.destination = ${filter.destination} ${status})`);
    } else if (filter.status) {
      conditions.push(Prisma.sql`m.status = ${filter.status}::message_status`);
    }
    if (after) conditions.push(keysetCondition(after, '<'));
    return this.prisma.$queryRaw<MessageRow[]>`
      SELECT ${SUMMARY_COLUMNS} FROM messages m ${whereAll(conditions)}
      ORDER BY received_at DESC, message_id DESC LIMIT ${limit + 1}`;
  }

  async find(id: string): Promise<MessageDetailRow | null> {
    const [row] = await this.prisma.$queryRaw<MessageDetailRow[]>`
      SELECT ${SUMMARY_COLUMNS}, payload,
        (SELECT coalesce(jsonb_agg(jsonb_build_object('step', s.step, 'attempt', s.attempt, 'completed_at', s.completed_at, 'result', s.result)
           ORDER BY s.completed_at), '[]'::jsonb) FROM message_steps s WHERE s.message_id = m.message_id) AS steps,
        (SELECT coalesce(jsonb_agg(jsonb_build_object('destination', j.destination, 'status', j.status, 'attempts', j.attempts,
           'last_error', j.last_error, 'result', j.result, 'due_at', j.due_at, 'completed_at', j.completed_at, 'replay', j.replay,
           -- A dead head of an ordered conversation that a later event of it went past.
           'broke_order', j.status = 'dead' AND j.conversation IS NOT NULL AND EXISTS (SELECT 1 FROM destination_jobs n
             WHERE n.destination = j.destination AND n.conversation = j.conversation AND n.status <> 'received'
               AND (n.ordered_at, n.received_at, n.message_id) > (j.ordered_at, j.received_at, j.message_id)))
           ORDER BY j.destination), '[]'::jsonb) FROM destination_jobs j WHERE j.message_id = m.message_id) AS destinations,
        (SELECT coalesce(jsonb_agg(to_jsonb(h) - 'id' - 'message_id' ORDER BY h.id), '[]'::jsonb) FROM (
           SELECT * FROM event_history WHERE message_id = m.message_id ORDER BY id DESC LIMIT ${HISTORY_LIMIT}) h) AS history
      FROM messages m WHERE message_id = ${id}`;
    return row ?? null;
  }

  /** Counts for the whole table (or one tenant's events) in one pass, plus the oldest unfinished event. */
  async stats(tenant?: string) {
    const ofTenant = tenant === undefined ? Prisma.empty : Prisma.sql`AND tenant = ${tenant}`;
    const groups = await this.prisma.$queryRaw<{ status: string | null; provider: string | null; kind: string | null; n: number; duplicates: number }[]>`
      SELECT status::text, provider::text, kind::text, count(*)::int AS n, coalesce(sum(duplicate_count), 0)::float8 AS duplicates
      FROM messages WHERE true ${ofTenant} GROUP BY GROUPING SETS ((status), (provider), (kind), ())`;
    const [oldest] = await this.prisma.$queryRaw<{ received_at: Date | null; age_seconds: number | null }[]>`
      SELECT min(received_at) AS received_at, extract(epoch FROM now() - min(received_at))::float8 AS age_seconds
      FROM messages WHERE status IN ('received', 'processing', 'failed') ${ofTenant}`;
    const destinations = await this.prisma.$queryRaw<{ destination: string; status: MessageStatus; n: number }[]>`
      SELECT j.destination, j.status::text, count(*)::int AS n FROM destination_jobs j
      ${tenant === undefined ? Prisma.empty : Prisma.sql`JOIN messages m ON m.message_id = j.message_id AND m.tenant = ${tenant}`}
      GROUP BY j.destination, j.status`;
    return { groups, oldest, destinations };
  }

  /**
   * Puts an event's dead or failed deliveries (to one destination, or to all) back to work,
   * attempts reset: the same effect, finished late, under the same key. Returns the destinations.
   */
  async replayDeliveries(id: string, destination: string | undefined): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ destination: string }[]>`
      WITH replayed AS (
        UPDATE destination_jobs SET status = 'received', attempts = 0, due_at = now(), lease_token = NULL, leased_by = NULL
        WHERE message_id = ${id} AND status IN ('dead', 'failed') AND (${destination ?? null}::text IS NULL OR destination = ${destination ?? null}::text)
        RETURNING message_id, destination
      )${logReplays('replayed', { fromStart: false, destination: 'each row’s' })}
      SELECT destination FROM replayed`;
    if (rows.length > 0) await this.prisma.$executeRaw`SELECT pg_notify('destination_jobs', '')`;
    return rows.map((r) => r.destination).sort();
  }

  /**
   * Puts a finished event back to work, attempts reset, only if it is in one of `from`
   * (compare-and-set: a worker leasing it at the same moment wins or loses as a whole).
   * `clearSteps` forgets its recovery points so every step runs again, and counts a replay:
   * a deliberate second effect, carried out under a new key. Returns the steps kept and the
   * replay number, or null when the event was not in one of those states.
   */
  async replay(id: string, from: MessageStatus[], clearSteps: boolean): Promise<{ kept: string[]; replay: number } | null> {
    const rows = await this.prisma.$queryRaw<{ message_id: string; kept: string[]; replays: number }[]>`
      WITH target AS (
        UPDATE messages SET status = 'received', attempts = 0, due_at = now(), lease_token = NULL, leased_by = NULL, processed_at = NULL,
          replays = replays + CASE WHEN ${clearSteps} THEN 1 ELSE 0 END
        WHERE message_id = ${id} AND status::text = ANY(${from}::text[])
        RETURNING message_id, replays
      ), cleared AS (
        DELETE FROM message_steps WHERE ${clearSteps} AND message_id IN (SELECT message_id FROM target)
      )${logReplays('target', { fromStart: clearSteps, destination: null })}
      SELECT t.message_id, t.replays,
        CASE WHEN ${clearSteps} THEN ARRAY[]::text[]
          ELSE (SELECT coalesce(array_agg(s.step ORDER BY s.completed_at), ARRAY[]::text[]) FROM message_steps s WHERE s.message_id = t.message_id) END AS kept
      FROM target t`;
    if (rows.length === 0) return null;
    await this.prisma.$executeRaw`SELECT pg_notify('messages_inbox', '')`; // wake an idle worker now
    return { kept: rows[0].kept, replay: rows[0].replays };
  }

  async statusOf(id: string): Promise<MessageStatus | null> {
    const [row] = await this.prisma.$queryRaw<{ status: MessageStatus }[]>`SELECT status::text FROM messages WHERE message_id = ${id}`;
    return row?.status ?? null;
  }
}
