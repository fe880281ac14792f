import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { DomainError, SignatureError } from '../common/domain-errors.js';
import { httpAnswerOf } from '../common/http-answer.js';
import { INGRESS_SECURITY_HEADERS } from '../http/security-headers.js';
import { requestId, requestLogLevel } from '../logging/logger-options.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { webhookRequestOutcome, sourceLabel, webhookRoute, type WebhookRoute } from './webhook-traffic.js';
import { JSON_BODY } from '../sources/body-formats.js';
import { IngestSettings } from '../sources/ingest.settings.js';
import type { WebhookRequest } from '../sources/webhook-request.js';
import { checkBodyHeaders, readWebhookBody, type WebhookBody } from './webhook-body.js';
import { WebhooksService } from './webhooks.service.js';

const INTERNAL_ERROR = { statusCode: 500, message: 'Internal server error' };

/**
 * Takes POST /webhook and /webhook/<source> at the HTTP server, in front of Express; every other
 * request goes on to Express and Nest as before. Webhook requests are the one route taken at
 * thousands a second, and Express's router, its body parser, the per-request loggers of
 * pino-http and Nest's pipeline cost as much CPU as storing the events (see bench/README.md);
 * here a webhook request costs one body read, one JSON parse and one answer. What those layers did is
 * done here the same way: the X-Request-Id, request-bound log lines, the request-completed line
 * (for failures; successes at debug), domain errors answered through httpAnswerOf. Every webhook
 * POST, refused or not, is answered here, so it is also counted and timed here. The routes are
 * documented in the OpenAPI document by webhooks.openapi.ts.
 */
@Injectable()
export class WebhookIngress implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | undefined;
  private express: RequestListener | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly webhooks: WebhooksService,
    private readonly ingest: IngestSettings,
    private readonly metrics: MetricsService,
    @InjectPinoLogger(WebhookIngress.name) private readonly logger: PinoLogger,
  ) {}

  onApplicationBootstrap(): void {
    const adapter = this.adapterHost.httpAdapter;
    const server = adapter?.getHttpServer() as Server | undefined;
    const express = adapter?.getInstance() as RequestListener | undefined;
    if (!server || !express) return;
    if (!server.listeners('request').includes(express)) throw new Error('the HTTP server does not dispatch to Express: cannot take webhook routes');
    server.removeListener('request', express);
    server.on('request', this.dispatch);
    this.server = server;
    this.express = express;
  }

  onApplicationShutdown(): void {
    if (!this.server || !this.express) return;
    this.server.removeListener('request', this.dispatch);
    this.server.on('request', this.express);
  }

  private readonly dispatch = (req: IncomingMessage, res: ServerResponse): void => {
    const route = webhookRoute(req.method, req.url);
    if (route === undefined) return void this.express!(req, res);
    const started = performance.now();
    const reqId = requestId(req, res);
    this.logger
      .runInContext(() => this.receive(req, res, route, reqId, started), { bindings: { reqId } })
      .catch((error: unknown) => this.logger.error({ err: error }, 'a webhook request could not be answered')); // never an unhandled rejection
  };

  private async receive(req: IncomingMessage, res: ServerResponse, route: WebhookRoute, reqId: string, started: number): Promise<void> {
    let read: WebhookBody | undefined; // POST /webhook is counted under the source its body's shape names
    res.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const label = sourceLabel(route.source, route.source === '' ? decodedOrUndefined(read) : undefined);
      this.metrics.webhookRequest(label, webhookRequestOutcome(res.statusCode, res.writableFinished), seconds);
    });
    let status: number;
    let failure: unknown;
    let rejected = false;
    try {
      const named = this.webhooks.sourceAt(route); // the URL's source decides the body's format
      const header = (name: string) => headerValue(req, name);
      const format = named?.bodyFormat ?? JSON_BODY;
      checkBodyHeaders(req, format); // 400/415 for a body in the wrong format, before it is read
      if (named) this.webhooks.checkHeaders(named, header); // 401 before the body is read: no credential header, no read
      read = await readWebhookBody(req, this.ingest.WEBHOOK_BODY_LIMIT, format);
      const request: WebhookRequest = Object.assign(read, { header, url: req.url ?? '/', urlSuffix: route.suffix }); // keeps `body` decoded on first read
      const { source, ack } = await this.webhooks.receive(request, named);
      const { contentType, body: text } = source.answer(ack);
      status = send(res, 200, contentType, text);
    } catch (error) {
      if (!(error instanceof DomainError)) {
        // The caller hung up while the body was read: no one to answer. (Not req.destroyed: a request
        // whose body was read to its end is destroyed too, and must still be answered.)
        if (req.socket.destroyed || res.destroyed) return;
        this.logger.error({ err: error }, 'a webhook request failed unexpectedly');
        failure = error;
        status = answer(res, 500, INTERNAL_ERROR);
      } else {
        rejected = error instanceof SignatureError;
        const { status: code, headers, body } = httpAnswerOf(error);
        // Refused before its body was read (415, 413 mid-stream): the rest of the body is still on
        // the wire, so this connection cannot carry another request.
        status = answer(res, code, body, req.complete ? headers : { ...headers, Connection: 'close' });
      }
    }
    // A rejected signature is logged, rate-limited, by WebhooksService: its request line would double a flood.
    const level = failure === undefined && rejected ? 'debug' : requestLogLevel(status, failure);
    if (this.logger.logger.isLevelEnabled(level)) {
      const responseTime = Math.round(performance.now() - started);
      // pino-http's line: its serializers read the request (with its id) and the response themselves.
      Object.assign(req, { id: reqId });
      this.logger.logger[level]({ req, res, responseTime }, 'request completed');
    }
  }
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): number {
  return send(res, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
}

function send(res: ServerResponse, status: number, contentType: string, text: string, headers: Record<string, string> = {}): number {
  if (res.headersSent || res.destroyed) return status;
  res.writeHead(status, { ...INGRESS_SECURITY_HEADERS, ...headers, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
  return status;
}

/** The decoded body if it decodes (it is decoded once; a failure is remembered, not retried). */
function decodedOrUndefined(read: WebhookBody | undefined): unknown {
  try {
    return read?.body;
  } catch {
    return undefined;
  }
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
