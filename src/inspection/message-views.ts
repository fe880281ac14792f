import type { EventKind } from '../sources/shared/normalized-event.js';
import type { SourceName } from '../sources/source-registry.js';
import type { TimelineEntry } from './event-timeline.js';

export const MESSAGE_STATUSES = ['received', 'processing', 'processed', 'failed', 'dead'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const EVENT_KINDS = ['message', 'status', 'other'] as const;

/** One row of the listing: everything but the raw payload. */
export interface MessageSummary {
  id: string;
  provider: SourceName;
  kind: EventKind;
  type: string;
  /** The other party: phone number (or chat id) when the source gave one, else its business-scoped user id. */
  from: string | null;
  /** The other party's business-scoped user id (Meta usernames), when the source gave one. */
  fromUserId: string | null;
  /** The business number or instance the event belongs to. */
  tenant: string | null;
  fromMe: boolean;
  /** The webhook request carried a valid signature of its source. */
  authenticated: boolean;
  timestamp: string | null;
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  duplicateCount: number;
  receivedAt: string;
  lastDuplicateAt: string | null;
  processedAt: string | null;
  /** Times an operator replayed it from the start. */
  replays: number;
}

export interface StepRecordView {
  name: string;
  attempt: number;
  completedAt: string;
  result: unknown;
}

/** One event's delivery to one destination (DESTINATIONS_FILE). */
export interface DestinationDeliveryView {
  destination: string;
  status: MessageStatus;
  attempts: number;
  lastError: string | null;
  /** What the destination answered, once delivered. */
  result: unknown;
  /** When the next attempt is due (or the running one's lease ends); null once finished. */
  nextAttemptAt: string | null;
  completedAt: string | null;
  /** The event's replay from the start it was made for. */
  replay: number;
  /** Dead, in an ordered destination, and a later event of its conversation went on without it. */
  brokeOrder: boolean;
}

export interface MessageDetail extends MessageSummary {
  steps: StepRecordView[];
  /** What happened to it, oldest first. */
  timeline: TimelineEntry[];
  /** Its deliveries to destinations, by name. */
  destinations: DestinationDeliveryView[];
  payload: unknown;
}

export interface MessagePage {
  items: MessageSummary[];
  nextCursor: string | null;
}

export interface MessageFilter {
  status?: MessageStatus;
  provider?: SourceName;
  kind?: EventKind;
  type?: string;
  /** Matches the phone number or the business-scoped user id. */
  from?: string;
  tenant?: string;
  /** Only events fanned out to this destination; `status` is then its delivery's. */
  destination?: string;
  /** ISO 8601 date-times with an offset (see ListMessagesQuery); InspectionService makes them exact UTC text. */
  since?: string;
  until?: string;
}

export interface MessageStats {
  total: number;
  byStatus: Record<MessageStatus, number>;
  byProvider: Record<SourceName, number>;
  byKind: Record<EventKind, number>;
  duplicatesSuppressed: number;
  dead: number;
  oldestUnprocessedReceivedAt: string | null;
  oldestUnprocessedAgeSeconds: number | null;
  /** Deliveries to each destination, by status (only destinations that have any). */
  byDestination: Record<string, Record<MessageStatus, number>>;
}

export interface ReplayAccepted {
  id: string;
  status: 'received';
  /** Steps that will not run again (empty with ?from=start). */
  completedSteps: string[];
  /** The replay number its effects will carry (0 unless replayed from the start). */
  replay: number;
  /** Destinations whose dead or failed delivery of it goes out again. */
  destinations: string[];
}

/** What POST /messages/replay did (or, in a dry run, would do). */
export interface BulkReplayResult {
  replayed: number;
  dryRun: boolean;
  /** Events, or their deliveries to `destination`. */
  target: 'events' | 'deliveries';
  destination: string | null;
}
