import { ApiProperty } from '@nestjs/swagger';
import type { ClaimVerdict, EventClaim } from '../dedup/claim-result.js';
import type { WebhookAck } from './webhook-delivery.js';

// Response shapes of POST /webhook for the OpenAPI document.

export class EventClaimDto implements EventClaim {
  @ApiProperty({ description: 'the idempotency key', example: 'meta:msg:wamid.HBgL…' }) id!: string;
  @ApiProperty({ enum: ['accepted', 'duplicate'] }) result!: ClaimVerdict;
}

export class WebhookAckDto implements WebhookAck {
  @ApiProperty({ description: 'events stored for the first time' }) accepted!: number;
  @ApiProperty({ description: 'events seen before (redeliveries)' }) duplicates!: number;
  @ApiProperty({ type: [EventClaimDto] }) events!: EventClaimDto[];
}
