import { ApiProperty, ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Transform, type TransformFnParams } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { MESSAGE_STATUSES, type BulkReplayResult, type MessageStatus } from '../message-views.js';
import { IsDestinationName, ListMessagesQuery } from './message-queries.js';

/** Query strings carry text: only the words true and false are booleans, anything else stays invalid. */
const booleanText = ({ value }: TransformFnParams): unknown => (value === 'true' ? true : value === 'false' ? false : value);

/** POST /messages/replay query: GET /messages' filters (no paging) and the replay's mode. */
export class BulkReplayQuery extends OmitType(ListMessagesQuery, ['status', 'destination', 'limit', 'cursor'] as const) {
  @ApiPropertyOptional({
    enum: MESSAGE_STATUSES,
    description: 'replay only rows in this status: dead or failed, or processed with fromStart=true (others are refused); with destination=, the delivery’s status',
  })
  @IsOptional()
  @IsIn(MESSAGE_STATUSES)
  status?: MessageStatus;

  @ApiPropertyOptional({
    description: 'replay the deliveries to this destination (DESTINATIONS_FILE) of the matching events instead of the events themselves',
    example: 'crm',
  })
  @IsOptional()
  @IsDestinationName()
  destination?: string;

  @ApiPropertyOptional({
    type: Boolean, default: false,
    description: 'also replay processed ones, from the start, as a deliberate second effect under a new key (<id>:replay-<n>): ' +
      'events forget their completed steps, like ?from=start of POST /messages/{id}/replay; a destination’s deliveries go out again ' +
      '(only those of processed events, whose replay count goes up). Named fromStart because `from` is the other-party filter here, as in GET /messages',
  })
  @IsOptional()
  @Transform(booleanText)
  @IsBoolean()
  fromStart?: boolean;

  @ApiPropertyOptional({ type: Boolean, default: false, description: 'only count what would be replayed; change nothing (and store no Idempotency-Key)' })
  @IsOptional()
  @Transform(booleanText)
  @IsBoolean()
  dryRun?: boolean;
}

export class BulkReplayResultDto implements BulkReplayResult {
  @ApiProperty({ description: 'rows put back to work (in a dry run: that would be)' }) replayed!: number;
  @ApiProperty() dryRun!: boolean;
  @ApiProperty({ enum: ['events', 'deliveries'] }) target!: 'events' | 'deliveries';
  @ApiProperty({ type: String, nullable: true, description: 'the destination whose deliveries were replayed' }) destination!: string | null;
}
