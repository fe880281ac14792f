import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { MetricsService } from './metrics.service.js';
import { deliveryOutcome, providerLabel, webhookPostSource } from './webhook-traffic.js';

/**
 * Counts and times every POST /webhook at the HTTP server, from the moment its request
 * arrives to its answer. It has to sit there, not in Nest: a body the JSON parser rejects
 * (malformed, too large) is answered before any middleware, guard or controller runs.
 * Synchronous, no I/O: one listener on the request and one on the response's close.
 */
@Injectable()
export class WebhookTrafficObserver implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: Server | undefined;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    this.server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    this.server?.prependListener('request', this.observe);
  }

  onApplicationShutdown(): void {
    this.server?.off('request', this.observe);
  }

  private readonly observe = (req: IncomingMessage & { body?: unknown }, res: ServerResponse): void => {
    const urlSource = webhookPostSource(req.method, req.url);
    if (urlSource === undefined) return;
    const started = performance.now();
    res.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      this.metrics.webhookDelivery(providerLabel(urlSource, req.body), deliveryOutcome(res.statusCode, res.writableFinished), seconds);
    });
  };
}
