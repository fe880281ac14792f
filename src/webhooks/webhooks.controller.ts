import { Controller, Get, Header, HttpCode, Post, Query, Req, type RawBodyRequest } from '@nestjs/common';
import type { Request } from 'express';
import type { WebhookAck } from './webhook-delivery.js';
import { WebhooksService } from './webhooks.service.js';

@Controller('webhook')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Header('Content-Type', 'text/plain; charset=utf-8')
  verify(@Query() query: Record<string, unknown>): string {
    return this.webhooks.verifySubscription(query);
  }

  /** Always exactly 200 on success: Meta retries anything else, 201 and 204 included. */
  @Post()
  @HttpCode(200)
  receive(@Req() req: RawBodyRequest<Request>): Promise<WebhookAck> {
    return this.webhooks.receive({
      body: req.rawBody === undefined ? undefined : req.body,
      rawBody: req.rawBody,
      metaSignature: req.header('x-hub-signature-256'),
      wasenderSignature: req.header('x-webhook-signature'),
    });
  }
}
