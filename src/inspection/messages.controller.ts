import { Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ActivityService, type Activity } from './activity.service.js';
import { BulkReplayService } from './bulk-replay.service.js';
import { ActivityDto, ActivityQuery } from './dto/activity.js';
import { BulkReplayQuery, BulkReplayResultDto } from './dto/bulk-replay.js';
import { ListMessagesQuery, ReplayQuery, StatsQuery } from './dto/message-queries.js';
import { ErrorDto } from '../common/error.dto.js';
import { MessageDetailDto, MessagePageDto, MessageStatsDto, ReplayAcceptedDto } from './dto/message-responses.js';
import { InspectionApi } from './inspection-api.decorator.js';
import { InspectionService } from './inspection.service.js';
import type { BulkReplayResult, MessageDetail, MessagePage, MessageStats, ReplayAccepted } from './message-views.js';

const idParam = ApiParam({ name: 'id', description: 'the idempotency key, URL-encoded', example: 'meta:msg:wamid.HBgL…' });

@Controller('messages')
@InspectionApi('messages')
export class MessagesController {
  constructor(
    private readonly inspection: InspectionService,
    private readonly bulkReplay: BulkReplayService,
    private readonly activityService: ActivityService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Events, newest first, filtered, one page at a time (no raw payloads)' })
  @ApiOkResponse({ description: 'one page of events and the cursor of the next', type: MessagePageDto })
  list(@Query() query: ListMessagesQuery): Promise<MessagePage> {
    const { limit, cursor, ...filter } = query;
    return this.inspection.list(filter, limit, cursor);
  }

  @Get('stats')
  @ApiOperation({ summary: 'Counts by status, provider and kind; duplicates suppressed; the oldest unfinished event' })
  @ApiOkResponse({ description: 'counts over the whole inbox, or over one tenant', type: MessageStatsDto })
  stats(@Query() query: StatsQuery): Promise<MessageStats> {
    return this.inspection.stats(query.tenant);
  }

  @Get('activity')
  @ApiOperation({
    summary: 'Events over the last hour, day or week: accepted, duplicates suppressed, processed, failed and dead, per time bucket, source and tenant',
    description: 'Counts over the events received in the range; a bucket’s processed counts by the time they were processed.',
  })
  @ApiOkResponse({ description: 'counts per bucket, in all, per source and per tenant', type: ActivityDto })
  activity(@Query() query: ActivityQuery): Promise<Activity> {
    return this.activityService.activity(query.range, { provider: query.provider, tenant: query.tenant });
  }

  @Post('replay')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Put every dead or failed event matching GET /messages’ filters (or its deliveries to one destination) back to work',
    description: 'In batches of 500, each its own short transaction; rows a worker holds at that moment are skipped. ' +
      'fromStart=true also replays processed ones under a new key (not from=start: `from` is the other-party filter). ' +
      'dryRun=true only counts. With an Idempotency-Key, a repeat acts no more and answers the first call’s result.',
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: '1 to 255 printable ASCII characters; the same key with the same filters replays once' })
  @ApiOkResponse({
    description: 'what was replayed (or, in a dry run, would be)', type: BulkReplayResultDto,
    headers: { 'Idempotent-Replayed': { description: 'true: the answer of an earlier call with this Idempotency-Key; nothing was done now', schema: { type: 'string', enum: ['true'] } } },
  })
  @ApiResponse({ status: 409, description: 'the Idempotency-Key was used with other filters, or its first call is still running', type: ErrorDto })
  async replayMatching(
    @Query() query: BulkReplayQuery,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<BulkReplayResult> {
    const { result, repeated } = await this.bulkReplay.replay(query, idempotencyKey);
    if (repeated) response.setHeader('Idempotent-Replayed', 'true');
    return result;
  }

  @Get(':id')
  @idParam
  @ApiOperation({ summary: 'One event: its state, completed steps and payload' })
  @ApiOkResponse({ description: 'the full record', type: MessageDetailDto })
  @ApiResponse({ status: 404, description: 'no event has this key', type: ErrorDto })
  get(@Param('id') id: string): Promise<MessageDetail> {
    return this.inspection.get(id);
  }

  @Post(':id/replay')
  @HttpCode(202)
  @idParam
  @ApiOperation({ summary: 'Put a dead or failed event (or, with ?from=start, a processed one) back to work, attempts reset' })
  @ApiResponse({ status: 202, description: 'queued; completed steps stay skipped unless ?from=start', type: ReplayAcceptedDto })
  @ApiResponse({ status: 404, description: 'no event has this key', type: ErrorDto })
  @ApiResponse({ status: 409, description: 'being processed now, already waiting, or processed without ?from=start', type: ErrorDto })
  replay(@Param('id') id: string, @Query() query: ReplayQuery): Promise<ReplayAccepted> {
    return this.inspection.replay(id, query.from === 'start', query.destination);
  }
}
