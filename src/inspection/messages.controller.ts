import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { ListMessagesQuery, ReplayQuery, StatsQuery } from './dto/message-queries.js';
import { ErrorDto } from '../common/error.dto.js';
import { MessageDetailDto, MessagePageDto, MessageStatsDto, ReplayAcceptedDto } from './dto/message-responses.js';
import { InspectionApi } from './inspection-api.decorator.js';
import { InspectionService } from './inspection.service.js';
import type { MessageDetail, MessagePage, MessageStats, ReplayAccepted } from './message-views.js';

const idParam = ApiParam({ name: 'id', description: 'the idempotency key, URL-encoded', example: 'meta:msg:wamid.HBgL…' });

@Controller('messages')
@InspectionApi('messages')
export class MessagesController {
  constructor(private readonly inspection: InspectionService) {}

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
