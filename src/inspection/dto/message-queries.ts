import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { EventKind, ProviderName } from '../../events/normalized-event.js';
import { EVENT_KINDS, MESSAGE_STATUSES, PROVIDERS, type MessageStatus } from '../message-views.js';

/** GET /messages query: every parameter optional; unknown parameters are refused. */
export class ListMessagesQuery {
  @ApiPropertyOptional({ enum: MESSAGE_STATUSES })
  @IsOptional()
  @IsIn(MESSAGE_STATUSES)
  status?: MessageStatus;

  @ApiPropertyOptional({ enum: PROVIDERS })
  @IsOptional()
  @IsIn(PROVIDERS)
  provider?: ProviderName;

  @ApiPropertyOptional({ enum: EVENT_KINDS })
  @IsOptional()
  @IsIn(EVENT_KINDS)
  kind?: EventKind;

  @ApiPropertyOptional({ description: 'message type (text, image…), status value (read…) or event name', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  type?: string;

  @ApiPropertyOptional({ description: 'the other party: sender of a message, recipient of a status', maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  from?: string;

  @ApiPropertyOptional({ description: 'received at or after this instant (ISO 8601)', example: '2026-11-29T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;

  @ApiPropertyOptional({ description: 'received before this instant (ISO 8601)', example: '2026-11-30T00:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 200, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number = 50;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  cursor?: string;
}

export class ReplayQuery {
  @ApiPropertyOptional({
    enum: ['start'],
    description: 'start: forget the completed steps and run every step again, as a deliberate second effect under a new key (<id>:replay-<n>)',
  })
  @IsOptional()
  @IsIn(['start'])
  from?: 'start';
}

/** GET /deliveries/{wamid} query. */
export class DeliveryQuery {
  @ApiPropertyOptional({ enum: PROVIDERS, description: 'the source whose record to show; needed only when several sources reported the id' })
  @IsOptional()
  @IsIn(PROVIDERS)
  provider?: ProviderName;
}
