import { ApiProperty } from '@nestjs/swagger';
import type { DestinationOverview } from '../../destinations/destinations-overview.service.js';

class RateLimitDto {
  @ApiProperty() perSecond!: number;
  @ApiProperty() burst!: number;
}

export class DestinationOverviewDto implements DestinationOverview {
  @ApiProperty({ example: 'crm' }) name!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: ['closed', 'open', 'paused'], description: 'open: paused after consecutive failures, one probe per interval; paused: a Retry-After is running' })
  state!: 'closed' | 'open' | 'paused';
  @ApiProperty() consecutiveFailures!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) openedAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'nothing is sent before this (next probe, or Retry-After)' }) pausedUntil!: string | null;
  @ApiProperty({ type: RateLimitDto, nullable: true }) rateLimit!: { perSecond: number; burst: number } | null;
  @ApiProperty({ enum: ['none', 'conversation'] }) ordering!: 'none' | 'conversation';
  @ApiProperty() maxAttempts!: number;
  @ApiProperty({ type: String, nullable: true }) lastError!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastErrorAt!: string | null;
  @ApiProperty({ description: 'deliveries not finished yet (received, processing, failed)' }) backlog!: number;
  @ApiProperty({ type: Number, nullable: true }) oldestUnfinishedAgeSeconds!: number | null;
  @ApiProperty() dead!: number;
}
