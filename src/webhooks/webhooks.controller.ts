import { applyDecorators, Controller, Get, Header, HttpCode, Param, Post, Query, Req, type RawBodyRequest } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ErrorDto } from '../common/error.dto.js';
import { PROVIDER_NAMES } from '../events/normalized-event.js';
import { WebhookAckDto } from './webhook-ack.dto.js';
import type { WebhookAck, WebhookDelivery } from './webhook-delivery.js';
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

const ReceiveDocs = () => applyDecorators(
  ApiBody({ description: "the provider's JSON body, signed as its source requires", schema: { type: 'object', additionalProperties: true } }),
  ApiOkResponse({ description: 'every event stored (accepted), seen before (duplicate) or too old to act on (stale)', type: WebhookAckDto }),
  ApiResponse({ status: 400, description: "not JSON, not an object, not the source's shape, or no event with an idempotency key", type: ErrorDto }),
  ApiResponse({ status: 401, description: "the source's signature is missing, malformed, expired or wrong (the message names the header)", type: ErrorDto }),
  ApiResponse({ status: 403, description: 'the source is not enabled (WEBHOOK_PROVIDERS)', type: ErrorDto }),
  ApiResponse({ status: 413, description: 'body above WEBHOOK_BODY_LIMIT' }),
  ApiResponse({ status: 503, description: 'the events could not be stored: retry (Retry-After)', type: ErrorDto }),
);

function deliveryOf(req: RawBodyRequest<Request>): WebhookDelivery {
  return { body: req.rawBody === undefined ? undefined : req.body, rawBody: req.rawBody, header: (name) => req.header(name) };
}

/** Webhook URLs: one per source, plus /webhook, which detects the source from the body's shape. */
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

  /** Always exactly 200 on success: Meta retries anything else, 201 and 204 included. */
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'A delivery of any enabled source, detected by its shape and verified with that source’s credential' })
  @ReceiveDocs()
  receive(@Req() req: RawBodyRequest<Request>): Promise<WebhookAck> {
    return this.webhooks.receive(deliveryOf(req));
  }

  @Post(':source')
  @HttpCode(200)
  @ApiOperation({ summary: 'A delivery of one source: verified and parsed as that source only' })
  @ApiParam({ name: 'source', enum: PROVIDER_NAMES })
  @ReceiveDocs()
  @ApiResponse({ status: 404, description: 'no such source', type: ErrorDto })
  receiveFrom(@Param('source') source: string, @Req() req: RawBodyRequest<Request>): Promise<WebhookAck> {
    return this.webhooks.receive(deliveryOf(req), source);
  }
}
