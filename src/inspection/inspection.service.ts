import { Injectable } from '@nestjs/common';
import { ConflictError, InvalidQueryError, NotFoundError } from '../common/domain-errors.js';
import type { EventKind } from '../sources/shared/normalized-event.js';
import { SOURCE_NAMES, type SourceName } from './../sources/source-registry.js';
import { ReceiptsRepository } from '../receipts/receipts.repository.js';
import type { DeliveryDto } from './dto/delivery-response.js';
import { buildTimeline } from './event-timeline.js';
import { instantText } from './message-filter-sql.js';
import { MessageInspectionRepository, type MessageRow } from './message-inspection.repository.js';
import {
  EVENT_KINDS,
  MESSAGE_STATUSES,
  type MessageDetail,
  type MessageFilter,
  type MessagePage,
  type MessageStats,
  type MessageStatus,
  type MessageSummary,
  type ReplayAccepted,
} from './message-views.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';

/** What operators ask of the inbox: list, look up, count, and put failed work back. */
@Injectable()
export class InspectionService {
  constructor(
    private readonly messages: MessageInspectionRepository,
    private readonly receipts: ReceiptsRepository,
  ) {}

  /**
   * The receipt of an outbound message. Records are per source; a message id reported
   * by more than one source (rare: ids are the provider's) needs `provider` to choose; one
   * reported by several tenants of a gateway (sessions, instances), `tenant`.
   */
  async receipt(wamid: string, provider?: SourceName, tenant?: string): Promise<DeliveryDto> {
    const records = await this.receipts.findAll(wamid, provider, tenant);
    if (records.length === 0) throw new NotFoundError(`no receipt for ${wamid}${provider ? ` from ${provider}` : ''}${tenant ? ` of tenant ${tenant}` : ''}`);
    if (records.length > 1) {
      const who = records.map((r) => (r.tenant === null ? r.provider : `${r.provider} ${r.tenant}`));
      const choose = new Set(records.map((r) => r.provider)).size > 1 ? '?provider= (and ?tenant=)' : '?tenant=';
      throw new ConflictError(`${records.length} sources or tenants reported ${wamid} (${who.join(', ')}): choose one with ${choose}`);
    }
    const [record] = records;
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    return {
      ...record,
      sentAt: iso(record.sentAt), deliveredAt: iso(record.deliveredAt), readAt: iso(record.readAt),
      playedAt: iso(record.playedAt), failedAt: iso(record.failedAt),
      createdAt: record.createdAt.toISOString(), updatedAt: record.updatedAt.toISOString(),
    };
  }

  async list(filter: MessageFilter, limit: number, cursor?: string): Promise<MessagePage> {
    const after = cursor === undefined ? null : decodeCursor(cursor);
    if (cursor !== undefined && after === null) throw new InvalidQueryError('cursor is not a nextCursor this service issued');
    const window = { since: instantText('since', filter.since), until: instantText('until', filter.until) };
    const rows = await this.messages.list({ ...filter, ...window }, limit, after);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const nextCursor = rows.length > limit && last ? encodeCursor({ receivedAtMicros: last.received_at_us, id: last.message_id }) : null;
    return { items: page.map(toSummary), nextCursor };
  }

  async get(id: string): Promise<MessageDetail> {
    const row = await this.messages.find(id);
    if (!row) throw new NotFoundError(`no event with id ${id}`);
    return {
      ...toSummary(row),
      steps: row.steps.map((s) => ({ name: s.step, attempt: s.attempt, completedAt: new Date(s.completed_at).toISOString(), result: s.result })),
      timeline: buildTimeline({
        receivedAt: row.received_at, duplicateCount: row.duplicate_count, lastDuplicateAt: row.last_duplicate_at, status: row.status,
        processedAt: row.processed_at, steps: row.steps, destinations: row.destinations, history: row.history,
      }),
      destinations: row.destinations.map((d) => ({
        destination: d.destination, status: d.status, attempts: d.attempts, lastError: d.last_error, result: d.result,
        nextAttemptAt: UNFINISHED.has(d.status) ? new Date(d.due_at).toISOString() : null,
        completedAt: d.completed_at === null ? null : new Date(d.completed_at).toISOString(), replay: d.replay, brokeOrder: d.broke_order,
      })),
      payload: row.payload,
    };
  }

  async stats(tenant?: string): Promise<MessageStats> {
    const { groups, oldest, destinations } = await this.messages.stats(tenant);
    const byDestination: Record<string, Record<MessageStatus, number>> = {};
    for (const { destination, status, n } of destinations) {
      byDestination[destination] ??= Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, 0])) as Record<MessageStatus, number>;
      byDestination[destination][status] = n;
    }
    const countsOf = <K extends string>(keys: readonly K[], column: 'status' | 'provider' | 'kind') =>
      Object.fromEntries(keys.map((k) => [k, groups.find((g) => g[column] === k)?.n ?? 0])) as Record<K, number>;
    const total = groups.find((g) => g.status === null && g.provider === null && g.kind === null);
    const byStatus = countsOf(MESSAGE_STATUSES, 'status');
    return {
      total: total?.n ?? 0,
      byStatus,
      byProvider: countsOf<SourceName>(SOURCE_NAMES, 'provider'),
      byKind: countsOf<EventKind>(EVENT_KINDS, 'kind'),
      duplicatesSuppressed: total?.duplicates ?? 0,
      dead: byStatus.dead,
      oldestUnprocessedReceivedAt: oldest?.received_at?.toISOString() ?? null,
      oldestUnprocessedAgeSeconds: oldest?.age_seconds ?? null,
      byDestination,
    };
  }

  /**
   * Dead and failed events go back to work from their first incomplete step; `fromStart`
   * also re-runs completed steps, and is the only way to replay a processed event.
   */
  async replay(id: string, fromStart: boolean, destination?: string): Promise<ReplayAccepted> {
    if (destination !== undefined && fromStart) {
      throw new InvalidQueryError('from=start replays the whole event (every destination, under a new key); destination= replays one dead or failed delivery');
    }
    if (destination === undefined) {
      const replayed = await this.messages.replay(id, fromStart ? ['dead', 'failed', 'processed'] : ['dead', 'failed'], fromStart);
      if (replayed !== null) return { id, status: 'received', completedSteps: replayed.kept, replay: replayed.replay, destinations: [] };
    }
    const status = await this.messages.statusOf(id);
    if (status === null) throw new NotFoundError(`no event with id ${id}`);
    // A processed event may still have dead or failed deliveries: those go out again, under the same key.
    if (!fromStart && (status === 'processed' || destination !== undefined)) {
      const destinations = await this.messages.replayDeliveries(id, destination);
      if (destinations.length > 0) return { id, status: 'received', completedSteps: [], replay: 0, destinations };
      if (destination !== undefined) throw new ConflictError(`the event has no dead or failed delivery to ${destination}`);
    }
    throw new ConflictError(REFUSALS[status] ?? `the event is ${status}`);
  }
}

const UNFINISHED: ReadonlySet<string> = new Set(['received', 'processing', 'failed']);

const REFUSALS: Partial<Record<string, string>> = {
  processing: 'the event is being processed right now; try again when it has finished',
  received: 'the event is already waiting to be processed',
  processed: 'the event was processed; replay it with ?from=start to run every step again',
};

function toSummary(row: MessageRow): MessageSummary {
  return {
    id: row.message_id,
    provider: row.provider as SourceName,
    kind: row.kind as EventKind,
    type: row.type,
    from: row.sender,
    fromUserId: row.user_id,
    tenant: row.tenant,
    fromMe: row.from_me,
    authenticated: row.authenticated,
    timestamp: row.provider_timestamp?.toISOString() ?? null,
    status: row.status,
    attempts: row.attempts,
    lastError: row.last_error,
    duplicateCount: row.duplicate_count,
    receivedAt: row.received_at.toISOString(),
    lastDuplicateAt: row.last_duplicate_at?.toISOString() ?? null,
    processedAt: row.processed_at?.toISOString() ?? null,
    replays: row.replays,
  };
}
