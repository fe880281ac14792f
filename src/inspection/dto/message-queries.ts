import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy, type ValidationArguments } from 'class-validator';
import { DESTINATION_NAME } from '../../destinations/destination.js';
import { parseIsoDateTime } from '../../common/iso-date-time.js';
import type { EventKind } from '../../sources/shared/normalized-event.js';
import { SOURCE_NAMES, type SourceName } from '../../sources/source-registry.js';
import { EVENT_KINDS, MESSAGE_STATUSES, type MessageStatus } from '../message-views.js';

const INSTANT = 'an ISO 8601 (RFC 3339) date-time with seconds and an offset or Z, e.g. 2026-11-29T00:00:00Z or 2026-11-29T00:00:00.123+02:00';

/**
 * One instant, whatever the server's time zone: a date-time without an offset, a date alone or
 * a week date names a different instant in every zone (or a whole day), so they are refused,
 * as are impossible dates. A space where the offset's `+` was is the classic unencoded `+`.
 */
function IsInstant(): PropertyDecorator {
  return ValidateBy({
    name: 'isInstant',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseIsoDateTime(value, { complete: true }) !== null,
      defaultMessage: ({ property, value }: ValidationArguments) =>
        `${property} must be ${INSTANT}${typeof value === 'string' && value.includes(' ') ? ' (in a URL, write + as %2B)' : ''}`,
    },
  });
}

/** A destination's name as DESTINATIONS_FILE allows it. */
export const IsDestinationName = () =>
  Matches(DESTINATION_NAME, { message: 'destination must be a destination name (lowercase letters, digits, _ and -)' });

/** GET /messages query: every parameter optional; unknown parameters are refused. */
export class ListMessagesQuery {
  @ApiPropertyOptional({ enum: MESSAGE_STATUSES })
  @IsOptional()
  @IsIn(MESSAGE_STATUSES)
  status?: MessageStatus;

  @ApiPropertyOptional({ enum: SOURCE_NAMES })
  @IsOptional()
  @IsIn(SOURCE_NAMES)
  provider?: SourceName;

  @ApiPropertyOptional({ enum: EVENT_KINDS })
  @IsOptional()
  @IsIn(EVENT_KINDS)
  kind?: EventKind;

  @ApiPropertyOptional({ description: 'message type (text, image…), status value (read…) or event name', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  type?: string;

  @ApiPropertyOptional({ description: 'the other party (sender of a message, recipient of a status): its phone number or its business-scoped user id', maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  from?: string;

  @ApiPropertyOptional({ description: 'the business number or instance (see tenant in the response)', maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  tenant?: string;

  @ApiPropertyOptional({
    description: 'only events fanned out to this destination (DESTINATIONS_FILE); with status=, the status of that delivery instead of the event’s ' +
      '(status=dead&destination=crm: the events whose delivery to crm is dead)',
    example: 'crm',
  })
  @IsOptional()
  @IsDestinationName()
  destination?: string;

  @ApiPropertyOptional({ description: `received at or after this instant: ${INSTANT}`, example: '2026-11-29T00:00:00Z', format: 'date-time' })
  @IsOptional()
  @IsInstant()
  since?: string;

  @ApiPropertyOptional({ description: `received before this instant: ${INSTANT}`, example: '2026-11-30T00:00:00.000+02:00', format: 'date-time' })
  @IsOptional()
  @IsInstant()
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

/** GET /messages/stats query. */
export class StatsQuery {
  @ApiPropertyOptional({ description: 'count only the events of this business number or instance', maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  tenant?: string;
}

export class ReplayQuery {
  @ApiPropertyOptional({
    enum: ['start'],
    description: 'start: forget the completed steps and run every step again, as a deliberate second effect under a new key (<id>:replay-<n>)',
  })
  @IsOptional()
  @IsIn(['start'])
  from?: 'start';

  @ApiPropertyOptional({ description: 'replay only the dead or failed delivery to this destination (DESTINATIONS_FILE)', example: 'crm' })
  @IsOptional()
  @IsDestinationName()
  destination?: string;
}

/** GET /deliveries/{wamid} query. */
export class DeliveryQuery {
  @ApiPropertyOptional({ enum: SOURCE_NAMES, description: 'the source whose record to show; needed only when several sources reported the id' })
  @IsOptional()
  @IsIn(SOURCE_NAMES)
  provider?: SourceName;

  @ApiPropertyOptional({ description: "the gateway's session or instance whose record to show; needed only when several reported the id", maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  tenant?: string;
}
