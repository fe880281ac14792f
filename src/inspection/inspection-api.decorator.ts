import { applyDecorators, UseGuards, UsePipes, ValidationPipe } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard } from './api-key.guard.js';
import { ErrorDto } from '../common/error.dto.js';

/**
 * What every inspection controller shares: the API key, query validation that names the bad
 * parameter (unknown parameters refused), and the documented 400/401 answers.
 */
export function InspectionApi(tag: string): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiBearerAuth(),
    UseGuards(ApiKeyGuard),
    UsePipes(new ValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true })),
    ApiResponse({ status: 400, description: 'a query parameter is invalid; the message names it', type: ErrorDto }),
    ApiResponse({ status: 401, description: 'INSPECTION_API_KEY is set and the bearer token is missing or wrong', type: ErrorDto }),
  );
}
