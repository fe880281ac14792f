import { ApiProperty } from '@nestjs/swagger';
import type { ReceiptStatus } from '../../sources/receipt-update.js';
import { SOURCE_NAMES, type SourceName } from '../../sources/source-registry.js';


const at = (what: string) => ({ type: String, format: 'date-time', nullable: true, description: `when it was ${what} (earliest report)` });

/** GET /deliveries/{wamid}: the receipt of one outbound message. */
export class DeliveryDto {
  @ApiProperty() wamid!: string;
  @ApiProperty({ enum: SOURCE_NAMES }) provider!: SourceName;
  @ApiProperty({ type: String, nullable: true, description: "the gateway's session or instance whose record it is; null for sources whose ids are global" })
  tenant!: string | null;
  @ApiProperty({ type: String, nullable: true }) recipient!: string | null;
  @ApiProperty({ enum: ['sent', 'delivered', 'read', 'played', 'failed'], description: 'the furthest status reached; failed is terminal' })
  status!: ReceiptStatus;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty(at('sent')) sentAt!: string | null;
  @ApiProperty(at('delivered')) deliveredAt!: string | null;
  @ApiProperty(at('read')) readAt!: string | null;
  @ApiProperty(at('played')) playedAt!: string | null;
  @ApiProperty(at('failed')) failedAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;

}
