import { applyDecorators, Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ErrorDto } from '../common/error.dto.js';
import { WebhooksService } from './webhooks.service.js';

const VerifyDocs = () => applyDecorators(
  ApiOperation({ summary: "Meta's subscription handshake" }),
  ApiQuery({ name: 'hub.mode', example: 'subscribe' }),
  ApiQuery({ name: 'hub.verify_token', description: 'must equal one of WHATSAPP_VERIFY_TOKEN' }),
  ApiQuery({ name: 'hub.challenge', description: 'echoed back' }),
  ApiProduces('text/plain'),
  ApiOkResponse({ description: 'the challenge, verbatim', schema: { type: 'string' } }),
  ApiResponse({ status: 403, description: 'wrong mode or verify token, or the meta source is not enabled', type: ErrorDto }),
);

/**
 * Meta's subscription handshake. The webhook requests themselves (POST /webhook and
 * /webhook/<source>) are taken by WebhookIngress in front of Express; see webhooks.openapi.ts.
 */
@Controller('webhook')
@ApiTags('webhook')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @VerifyDocs()
  verify(@Query() query: Record<string, unknown>): string {
    return this.webhooks.verifySubscription(query);
  }

  @Get('meta')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @VerifyDocs()
  verifyMeta(@Query() query: Record<string, unknown>): string {
    return this.webhooks.verifySubscription(query);
  }
}
