import { ApiProperty } from '@nestjs/swagger';
import type { EventResult, WebhookAck } from './webhook-ack.js';

// Response shapes of POST /webhook and /webhook/{source} for the OpenAPI document.

export class EventResultDto {
  @ApiProperty({ description: 'the idempotency key', example: 'meta:msg:wamid.HBgL…' }) id!: string;
  @ApiProperty({
    enum: ['accepted', 'duplicate', 'stale'],
    description: "stale: the source's time is older than RETENTION_DAYS; acknowledged but not stored or processed",
  })
  result!: EventResult;
}

export class WebhookAckDto implements WebhookAck {
  @ApiProperty({ description: 'events stored for the first time' }) accepted!: number;
  @ApiProperty({ description: 'events seen before (redeliveries)' }) duplicates!: number;
  @ApiProperty({ description: 'events too old to act on (a possible replay)' }) stale!: number;
  @ApiProperty({ type: [EventResultDto] }) events!: EventResultDto[];
}
