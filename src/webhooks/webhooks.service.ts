import { Injectable, Logger } from '@nestjs/common';
import { InvalidPayloadError, PayloadTooLargeError, SignatureError, VerificationFailedError } from '../common/domain-errors.js';
import { DedupService } from '../dedup/dedup.service.js';
import { RetentionSettings } from '../retention/retention.settings.js';
import { IngestSettings } from '../sources/ingest.settings.js';
import { MetaSettings } from '../sources/meta/meta.settings.js';
import { detectSource } from '../sources/source-registry.js';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { safeEqual } from '../common/safe-equal.js';
import { RejectionLog } from './rejection-log.js';
import { isStale } from './stale-events.js';
import type { WebhookRoute } from './webhook-traffic.js';
import type { WebhookSource } from '../sources/webhook-source.js';
import { WebhookSources } from './webhook-sources.service.js';
import type { WebhookRequest } from '../sources/webhook-request.js';
import type { EventResult, WebhookAck } from './webhook-ack.js';

/** A stored webhook request: its acknowledgement, and the source that answers it in its own format. */
export interface WebhookAnswer {
  source: WebhookSource;
  ack: WebhookAck;
}

@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);
  private readonly rejections = new RejectionLog(this.logger);

  constructor(
    private readonly ingest: IngestSettings,
    private readonly meta: MetaSettings,
    private readonly retention: RetentionSettings,
    private readonly sources: WebhookSources,
    private readonly dedup: DedupService,
    private readonly metrics: MetricsService,
  ) {}

  /** Meta's subscription handshake: echo the challenge when the verify token is one of the configured ones. */
  verifySubscription(query: Record<string, unknown>): string {
    this.sources.named('meta'); // 403 unless the meta source is enabled
    const param = (name: string) => {
      const value = query[`hub.${name}`] ?? (query.hub as Record<string, unknown> | undefined)?.[name];
      return typeof value === 'string' ? value : undefined;
    };
    const token = param('verify_token');
    const known = token !== undefined && this.meta.WHATSAPP_VERIFY_TOKEN.map((expected) => safeEqual(token, expected)).includes(true);
    if (param('mode') !== 'subscribe' || !known) {
      throw new VerificationFailedError('hub.mode must be subscribe and hub.verify_token must match WHATSAPP_VERIFY_TOKEN');
    }
    return param('challenge') ?? '';
  }

  /**
   * The source a webhook URL names, before its body is read (its format depends on it): 404 for
   * an unknown name or a suffix the source does not take, 403 when not enabled. Undefined for
   * POST /webhook itself, where the source that detects the body is taken.
   */
  sourceAt(route: WebhookRoute): WebhookSource | undefined {
    return route.source === '' && route.suffix === '' ? undefined : this.sources.named(route.source, route.suffix);
  }

  /**
   * Refuses a webhook request to a per-source URL whose headers cannot prove its origin (its
   * credential header absent or malformed), before its body is read.
   */
  checkHeaders(source: WebhookSource, header: (name: string) => string | undefined): void {
    this.rejectedIf(source, () => source.checkHeaders(header));
  }

  /**
   * Verifies, normalizes and claims one webhook request; resolves only once its events are stored.
   * `named` is the source of a per-source URL: its signature is checked over the bytes before
   * the body is decoded (request.body decodes on first read; a source whose credential is in
   * the body reads it). Without it (POST /webhook) the source that detects the body is taken, so that
   * body is parsed first, and that source's own credential verifies it.
   */
  async receive(request: WebhookRequest, named?: WebhookSource): Promise<WebhookAnswer> {
    const source = named ?? this.sources.named(detectSource(request.body)); // 404 for an unknown name, 403 when not enabled
    const verification = this.rejectedIf(source, () => source.verify(request));
    const detected = detectSource(request.body); // 400 unless a JSON object (a form body decodes to one)
    if (source.detectedAs !== null && detected !== source.detectedAs) {
      throw new InvalidPayloadError(`the body has the ${detected} shape, not ${source.name}'s: post it to /webhook/${detected}`);
    }
    // Parsing checks the events' tenants against the credential's (TENANTS_FILE): a 401 too.
    const events = this.rejectedIf(source, () => source.parse(request, verification));
    if (events.length === 0) throw new InvalidPayloadError(`no event with an idempotency key in the body (${source.name} payload)`);
    if (events.length > this.ingest.WEBHOOK_MAX_EVENTS) {
      // Before anything is stored, so the same request sent again gets the same answer.
      throw new PayloadTooLargeError(`the webhook request carries ${events.length} events, more than WEBHOOK_MAX_EVENTS (${this.ingest.WEBHOOK_MAX_EVENTS}): split it`);
    }
    const results = await this.claimFresh(events);
    this.metrics.eventsClaimed(events, results);
    const count = (result: EventResult) => results.filter((r) => r === result).length;
    const ack: WebhookAck = {
      accepted: count('accepted'),
      duplicates: count('duplicate'),
      stale: count('stale'),
      events: events.map((event, i) => ({ id: event.key, result: results[i] })),
    };
    return { source, ack };
  }

  private rejectedIf<T>(source: WebhookSource, check: () => T): T {
    try {
      return check();
    } catch (error) {
      if (error instanceof SignatureError) {
        this.metrics.signatureRejected(source.name, error.reason);
        this.rejections.rejected(source.name, error);
      }
      throw error;
    }
  }

  /** Claims the events that are not stale; stale ones are answered as such and never stored. */
  private async claimFresh(events: NormalizedEvent[]): Promise<EventResult[]> {
    const now = Date.now();
    const stale = events.map((event) => isStale(event, this.retention.RETENTION_DAYS, now));
    const staleCount = stale.filter(Boolean).length;
    if (staleCount === 0) return (await this.dedup.claim(events)).map((claim) => claim.result);
    this.logger.warn(
      `ignored ${staleCount} ${events[0].source} event(s) whose source's time is more than ${this.retention.RETENTION_DAYS} days old ` +
        '(RETENTION_DAYS): possibly a replayed capture; acknowledged, not stored',
    );
    const fresh = events.filter((_, i) => !stale[i]);
    const claims = fresh.length > 0 ? await this.dedup.claim(fresh) : [];
    let next = 0;
    return stale.map((isOld) => (isOld ? 'stale' : claims[next++].result));
  }
}
