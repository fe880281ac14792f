import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { DeliveryDto } from './dto/delivery-response.js';
import { DeliveryQuery } from './dto/message-queries.js';
import { ErrorDto } from '../common/error.dto.js';
import { InspectionApi } from './inspection-api.decorator.js';
import { InspectionService } from './inspection.service.js';

@Controller('deliveries')
@InspectionApi('deliveries')
export class DeliveriesController {
  constructor(private readonly inspection: InspectionService) {}

  @Get(':wamid')
  @ApiParam({ name: 'wamid', description: 'the outbound message id (URL-encoded)' })
  @ApiOperation({ summary: 'The receipt of an outbound message, as its source reported it: furthest status and when each was reached' })
  @ApiOkResponse({ description: 'the receipt; `provider` is the source whose statuses built it', type: DeliveryDto })
  @ApiResponse({ status: 404, description: 'no authenticated status has been seen for this message (from this provider)', type: ErrorDto })
  @ApiResponse({ status: 409, description: 'several sources, or several tenants of a gateway, reported this id: choose one with ?provider= or ?tenant=', type: ErrorDto })
  get(@Param('wamid') wamid: string, @Query() query: DeliveryQuery): Promise<DeliveryDto> {
    return this.inspection.receipt(wamid, query.provider, query.tenant);
  }
}
