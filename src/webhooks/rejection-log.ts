import type { LoggerService } from '@nestjs/common';
import { TenantNotBoundError, type SignatureError } from '../common/domain-errors.js';

/** How often, at most, rejected webhook requests are reported (as overload shedding is: DedupService.shed). */
export const REJECTION_REPORT_MS = 1000;

/**
 * Rejected webhook requests (bad or missing signatures) logged without flooding the log: anyone can
 * send them, as fast as they like. The first rejection after a quiet period is logged at once,
 * with its reason; the ones that follow are counted per source and reason, and reported in one
 * line at most every REJECTION_REPORT_MS. Every rejection is still counted in
 * wdd_webhook_signature_rejected_total.
 */
export class RejectionLog {
  private readonly counts = new Map<string, number>();
  private lastReportAt = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: LoggerService,
    private readonly intervalMs = REJECTION_REPORT_MS,
  ) {}

  rejected(source: string, error: SignatureError): void {
    if (this.timer === undefined && performance.now() - this.lastReportAt >= this.intervalMs) {
      // The tenant a refused webhook request names may hold a phone number (Twilio's): never logged.
      const why = error instanceof TenantNotBoundError ? 'its credential is not bound to the tenant it names (TENANTS_FILE)' : error.message;
      this.logger.warn(`rejected a ${source} webhook request: ${why}`);
      this.lastReportAt = performance.now();
      return;
    }
    const key = `${source} ${error.header} ${error.reason}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const wait = Math.max(0, this.lastReportAt + this.intervalMs - performance.now());
    this.timer ??= setTimeout(() => this.report(), wait).unref();
  }

  /** One line: how many were rejected since the last line, per source, credential header and reason. */
  private report(): void {
    this.timer = undefined;
    const total = [...this.counts.values()].reduce((a, b) => a + b, 0);
    const parts = [...this.counts].sort(([a], [b]) => a.localeCompare(b)).map(([key, n]) => `${key}: ${n}`);
    this.counts.clear();
    this.lastReportAt = performance.now();
    this.logger.warn(`rejected ${total} more webhook request(s) since the last report (${parts.join('; ')})`);
  }
}
