import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { MetricsService } from './metrics.service.js';

/** Prometheus scrapes this. */
@Controller('metrics')
@ApiTags('operations')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @ApiOperation({ summary: 'Prometheus metrics: webhook requests, events, acknowledgement latency, processing, inbox backlog' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'the Prometheus text exposition format (0.0.4)', schema: { type: 'string' } })
  scrape(@Res({ passthrough: true }) res: Response): Promise<string> {
    res.setHeader('Content-Type', this.metrics.contentType);
    return this.metrics.scrape();
  }
}
