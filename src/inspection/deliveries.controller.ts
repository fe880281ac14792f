import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { DeliveryDto } from './dto/delivery-response.js';
import { ErrorDto } from '../common/error.dto.js';
import { InspectionApi } from './inspection-api.decorator.js';
import { InspectionService } from './inspection.service.js';

@Controller('deliveries')
@InspectionApi('deliveries')
export class DeliveriesController {
  constructor(private readonly inspection: InspectionService) {}

  @Get(':wamid')
  @ApiParam({ name: 'wamid', description: 'the outbound message id (URL-encoded)' })
  @ApiOperation({ summary: 'The delivery record of an outbound message: furthest status and when each was reached' })
  @ApiOkResponse({ description: 'the delivery record', type: DeliveryDto })
  @ApiResponse({ status: 404, description: 'no status has been seen for this message', type: ErrorDto })
  get(@Param('wamid') wamid: string): Promise<DeliveryDto> {
    return this.inspection.delivery(wamid);
  }
}
