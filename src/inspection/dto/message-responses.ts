import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { EventKind } from '../../sources/shared/normalized-event.js';
import { SOURCE_NAMES, type SourceName } from '../../sources/source-registry.js';
import {
  EVENT_KINDS,
  MESSAGE_STATUSES,
  type DestinationDeliveryView,
  type MessageDetail,
  type MessagePage,
  type MessageStats,
  type MessageStatus,
  type MessageSummary,
  type ReplayAccepted,
  type StepRecordView,
} from '../message-views.js';
import { TIMELINE_KINDS, type TimelineEntry, type TimelineKind } from '../event-timeline.js';

// Response shapes for the OpenAPI document; the service returns plain objects of these types.

export class MessageSummaryDto implements MessageSummary {
  @ApiProperty({ description: 'the idempotency key', example: 'meta:msg:wamid.HBgL…' }) id!: string;
  @ApiProperty({ enum: SOURCE_NAMES }) provider!: SourceName;
  @ApiProperty({ enum: EVENT_KINDS }) kind!: EventKind;
  @ApiProperty({ example: 'text' }) type!: string;
  @ApiProperty({ type: String, nullable: true, description: 'sender of a message, recipient of a status: the phone number (or chat id), else the business-scoped user id' })
  from!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "the other party's business-scoped user id (Meta usernames)", example: 'US.13491208655302741918' })
  fromUserId!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'the business number or instance: Meta/360dialog phone_number_id, Twilio AccountSid:number, WAHA session, Evolution instance' })
  tenant!: string | null;
  @ApiProperty() fromMe!: boolean;
  @ApiProperty({ description: "the webhook request carried a valid signature of its source; only such events change receipts or reply" })
  authenticated!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the provider says it happened' }) timestamp!: string | null;
  @ApiProperty({ enum: MESSAGE_STATUSES }) status!: MessageStatus;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: String, nullable: true }) lastError!: string | null;
  @ApiProperty({ description: 'redeliveries suppressed' }) duplicateCount!: number;
  @ApiProperty({ format: 'date-time' }) receivedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastDuplicateAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) processedAt!: string | null;
  @ApiProperty({ description: 'times replayed from the start; each replay is forwarded under <id>:replay-<n>' }) replays!: number;
}

export class StepRecordDto implements StepRecordView {
  @ApiProperty({ example: 'forward' }) name!: string;
  @ApiProperty() attempt!: number;
  @ApiProperty({ format: 'date-time' }) completedAt!: string;
  @ApiPropertyOptional({ description: 'what the step returned', nullable: true }) result!: unknown;
}

export class DestinationDeliveryDto implements DestinationDeliveryView {
  @ApiProperty({ example: 'crm' }) destination!: string;
  @ApiProperty({ enum: MESSAGE_STATUSES }) status!: MessageStatus;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: String, nullable: true }) lastError!: string | null;
  @ApiPropertyOptional({ description: "the destination's answer once delivered ({status})", nullable: true }) result!: unknown;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the next attempt is due; null once finished' }) nextAttemptAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt!: string | null;
  @ApiProperty({ description: 'the replay from the start it was made for' }) replay!: number;
  @ApiProperty({ description: 'ordering: conversation only: dead, and a later event of its conversation was sent after it died (the order broke here)' })
  brokeOrder!: boolean;
}

export class TimelineEntryDto implements TimelineEntry {
  @ApiProperty({ format: 'date-time' }) at!: string;
  @ApiProperty({ enum: TIMELINE_KINDS, description: 'step and delivery: done; attempt-failed and delivery-failed: an attempt failed (dead follows when it was the last)' })
  kind!: TimelineKind;
  @ApiPropertyOptional({ example: 'forward' }) step?: string;
  @ApiPropertyOptional({ example: 'crm' }) destination?: string;
  @ApiPropertyOptional() attempt?: number;
  @ApiPropertyOptional() error?: string;
  @ApiPropertyOptional({ description: 'duplicate: redeliveries suppressed in all; the entry is at the last one' }) count?: number;
  @ApiPropertyOptional({ description: 'replayed: from the start (every step again, under a new key)' }) fromStart?: boolean;
}

export class MessageDetailDto extends MessageSummaryDto implements MessageDetail {
  @ApiProperty({ type: [StepRecordDto], description: 'completed steps (recovery points), in order' }) steps!: StepRecordDto[];
  @ApiProperty({ type: [TimelineEntryDto], description: 'what happened to it, oldest first: received, steps and deliveries done, failed attempts, replays, processed' })
  timeline!: TimelineEntryDto[];
  @ApiProperty({ type: [DestinationDeliveryDto], description: 'its deliveries to destinations (DESTINATIONS_FILE), by name' }) destinations!: DestinationDeliveryDto[];
  @ApiProperty({ type: 'object', additionalProperties: true, description: "the provider's item as stored" }) payload!: unknown;
}

export class MessagePageDto implements MessagePage {
  @ApiProperty({ type: [MessageSummaryDto] }) items!: MessageSummaryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as ?cursor= for the next page; null on the last' }) nextCursor!: string | null;
}

const counts = (keys: readonly string[]) => ({
  type: 'object' as const,
  properties: Object.fromEntries(keys.map((k) => [k, { type: 'integer' as const }])),
});

export class MessageStatsDto implements MessageStats {
  @ApiProperty() total!: number;
  @ApiProperty(counts(MESSAGE_STATUSES)) byStatus!: Record<MessageStatus, number>;
  @ApiProperty(counts(SOURCE_NAMES)) byProvider!: Record<SourceName, number>;
  @ApiProperty(counts(EVENT_KINDS)) byKind!: Record<EventKind, number>;
  @ApiProperty({ description: 'redeliveries answered as duplicates, all time' }) duplicatesSuppressed!: number;
  @ApiProperty() dead!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) oldestUnprocessedReceivedAt!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'age of the oldest event not yet processed (received, processing or failed)' })
  oldestUnprocessedAgeSeconds!: number | null;
  @ApiProperty({
    type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'number' } },
    description: 'deliveries per destination and status', example: { crm: { received: 0, processing: 1, processed: 120, failed: 2, dead: 0 } },
  })
  byDestination!: Record<string, Record<MessageStatus, number>>;
}

export class ReplayAcceptedDto implements ReplayAccepted {
  @ApiProperty() id!: string;
  @ApiProperty({ enum: ['received'] }) status!: 'received';
  @ApiProperty({ type: [String], description: 'steps that stay done and will not run again' }) completedSteps!: string[];
  @ApiProperty({ description: '0, or n for the n-th replay from the start: its effects carry the key <id>:replay-<n> and X-Replay: n' }) replay!: number;
  @ApiProperty({ type: [String], description: 'destinations whose dead or failed delivery goes out again (same key: the same effect, finished late)' }) destinations!: string[];
}
