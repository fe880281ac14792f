import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { SOURCE_NAMES, type SourceName } from '../../sources/source-registry.js';
import type { ActivityCounts } from '../activity.repository.js';
import type { Activity } from '../activity.service.js';
import { ACTIVITY_RANGES, type ActivityRange } from '../activity-window.js';


/** GET /messages/activity query. */
export class ActivityQuery {
  @ApiPropertyOptional({ enum: ACTIVITY_RANGES, default: 'hour', description: 'hour: 60 × 1 min buckets; day: 96 × 15 min; week: 168 × 1 h' })
  @IsOptional()
  @IsIn(ACTIVITY_RANGES)
  range: ActivityRange = 'hour';

  @ApiPropertyOptional({ enum: SOURCE_NAMES, description: 'only this source' })
  @IsOptional()
  @IsIn(SOURCE_NAMES)
  provider?: SourceName;

  @ApiPropertyOptional({ description: 'only this business number or instance', maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  tenant?: string;
}

export class ActivityCountsDto implements ActivityCounts {
  @ApiProperty({ description: 'events stored (first copies)' }) accepted!: number;
  @ApiProperty({ description: 'redeliveries of those events, suppressed' }) duplicates!: number;
  @ApiProperty({ description: 'processed (in a bucket: by the time they were processed)' }) processed!: number;
  @ApiProperty({ description: 'failed now, waiting for a retry' }) failed!: number;
  @ApiProperty({ description: 'dead now' }) dead!: number;
}

export class ActivityBucketDto extends ActivityCountsDto {
  @ApiProperty({ format: 'date-time' }) start!: string;
}

export class SourceActivityDto extends ActivityCountsDto {
  @ApiProperty({ enum: SOURCE_NAMES }) provider!: string;
}

export class TenantActivityDto extends ActivityCountsDto {
  @ApiProperty({ type: String, nullable: true }) tenant!: string | null;
}

export class ActivityDto implements Activity {
  @ApiProperty({ enum: ACTIVITY_RANGES }) range!: ActivityRange;
  @ApiProperty() bucketSeconds!: number;
  @ApiProperty({ format: 'date-time', description: 'the first bucket’s start' }) from!: string;
  @ApiProperty({ format: 'date-time', description: 'the last bucket’s end (the last bucket holds now)' }) to!: string;
  @ApiProperty({ type: [ActivityBucketDto] }) buckets!: ActivityBucketDto[];
  @ApiProperty({ type: ActivityCountsDto }) totals!: ActivityCountsDto;
  @ApiProperty({ type: [SourceActivityDto], description: 'per source, most events first' }) bySource!: SourceActivityDto[];
  @ApiProperty({ type: [TenantActivityDto], description: 'the 20 tenants with most events' }) byTenant!: TenantActivityDto[];
}
