import { Injectable, Logger } from '@nestjs/common';
import { InvalidPayloadError, SignatureError, VerificationFailedError } from '../common/domain-errors.js';
import { AppConfig } from '../config/app-config.js';
import { DedupService } from '../dedup/dedup.service.js';
import { detectProvider } from '../events/detect-provider.js';
import type { ProviderName } from '../events/normalized-event.js';
import { parseDelivery } from '../events/parse-delivery.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { isValidMetaSignature, isValidWasenderSignature, safeEqual } from './signatures.js';
import type { WebhookAck, WebhookDelivery } from './webhook-delivery.js';

@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly dedup: DedupService,
    private readonly metrics: MetricsService,
  ) {}

  /** Meta's subscription handshake: echo the challenge when the verify token matches. */
  verifySubscription(query: Record<string, unknown>): string {
    const param = (name: string) => {
      const value = query[`hub.${name}`] ?? (query.hub as Record<string, unknown> | undefined)?.[name];
      return typeof value === 'string' ? value : undefined;
    };
    const expected = this.config.WHATSAPP_VERIFY_TOKEN;
    const token = param('verify_token');
    const challenge = param('challenge');
    if (param('mode') !== 'subscribe' || !expected || token === undefined || !safeEqual(token, expected)) {
      throw new VerificationFailedError('hub.mode must be subscribe and hub.verify_token must match WHATSAPP_VERIFY_TOKEN');
    }
    return challenge ?? '';
  }

  /** Verifies, normalizes and claims one delivery; resolves only once its events are stored. */
  async receive(delivery: WebhookDelivery): Promise<WebhookAck> {
    if (delivery.body === undefined || delivery.rawBody === undefined) {
      throw new InvalidPayloadError('body is not JSON: send Content-Type application/json');
    }
    const provider = detectProvider(delivery.body);
    this.verifySignature(provider, delivery);
    const { events } = parseDelivery(delivery.body, provider);
    const claims = await this.dedup.claim(events);
    this.metrics.eventsClaimed(events, claims);
    const accepted = claims.filter((c) => c.result === 'accepted').length;
    return { accepted, duplicates: claims.length - accepted, events: claims };
  }

  private verifySignature(provider: ProviderName, delivery: WebhookDelivery): void {
    const { WHATSAPP_APP_SECRET: appSecret, WASENDER_WEBHOOK_SECRET: wasenderSecret } = this.config;
    let valid = true;
    if (provider === 'meta' && appSecret) {
      valid = isValidMetaSignature(delivery.rawBody!, delivery.metaSignature, appSecret);
    } else if (provider === 'wasender' && wasenderSecret) {
      valid = isValidWasenderSignature(delivery.wasenderSignature, wasenderSecret);
    }
    if (!valid) {
      this.metrics.signatureRejected(provider);
      const header = provider === 'meta' ? 'X-Hub-Signature-256' : 'X-Webhook-Signature';
      const present = provider === 'meta' ? delivery.metaSignature : delivery.wasenderSignature;
      this.logger.warn(`rejected a ${provider} delivery: ${header} ${present ? 'does not match' : 'is missing'}`);
      throw new SignatureError(`${header} ${present ? 'does not match' : 'is missing'}`);
    }
  }
}
