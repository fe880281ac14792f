import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { DestinationsOverviewService, type DestinationOverview } from '../destinations/destinations-overview.service.js';
import { DestinationOverviewDto } from './dto/destination-response.js';
import { InspectionApi } from './inspection-api.decorator.js';

@Controller('destinations')
@InspectionApi('destinations')
export class DestinationsController {
  constructor(private readonly overview: DestinationsOverviewService) {}

  @Get()
  @ApiOperation({ summary: 'The destinations of DESTINATIONS_FILE: circuit state, rate limit, last error and backlog of each' })
  @ApiOkResponse({ description: 'one entry per configured destination, enabled or not', type: [DestinationOverviewDto] })
  list(): Promise<DestinationOverview[]> {
    return this.overview.list();
  }
}
