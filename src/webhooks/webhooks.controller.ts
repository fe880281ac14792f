import { Controller, Get, Header, HttpCode, Post, Query, Req, type RawBodyRequest } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ErrorDto } from '../common/error.dto.js';
import { WebhookAckDto } from './webhook-ack.dto.js';
import type { WebhookAck } from './webhook-delivery.js';
import { WebhooksService } from './webhooks.service.js';

@Controller('webhook')
@ApiTags('webhook')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @ApiOperation({ summary: "Meta's subscription handshake" })
  @ApiQuery({ name: 'hub.mode', example: 'subscribe' })
  @ApiQuery({ name: 'hub.verify_token', description: 'must equal WHATSAPP_VERIFY_TOKEN' })
  @ApiQuery({ name: 'hub.challenge', description: 'echoed back' })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'the challenge, verbatim', schema: { type: 'string' } })
  @ApiResponse({ status: 403, description: 'wrong mode or verify token', type: ErrorDto })
  verify(@Query() query: Record<string, unknown>): string {
    return this.webhooks.verifySubscription(query);
  }

  /** Always exactly 200 on success: Meta retries anything else, 201 and 204 included. */
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'A webhook delivery from Meta, WASenderApi or the generic shape: stored, then acknowledged' })
  @ApiBody({ description: "the provider's JSON body, signed per provider", schema: { type: 'object', additionalProperties: true } })
  @ApiOkResponse({ description: 'every event stored (accepted) or seen before (duplicate)', type: WebhookAckDto })
  @ApiResponse({ status: 400, description: 'not JSON, not an object, or no event with an idempotency key', type: ErrorDto })
  @ApiResponse({ status: 401, description: 'a configured signature check failed', type: ErrorDto })
  @ApiResponse({ status: 413, description: 'body above WEBHOOK_BODY_LIMIT' })
  @ApiResponse({ status: 503, description: 'the events could not be stored: retry (Retry-After)', type: ErrorDto })
  receive(@Req() req: RawBodyRequest<Request>): Promise<WebhookAck> {
    return this.webhooks.receive({
      body: req.rawBody === undefined ? undefined : req.body,
      rawBody: req.rawBody,
      metaSignature: req.header('x-hub-signature-256'),
      wasenderSignature: req.header('x-webhook-signature'),
    });
  }
}
