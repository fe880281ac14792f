import { Logger } from '@nestjs/common';
import { Gauge, type Registry } from 'prom-client';
import type { InboxStats } from './inbox-stats.js';
import type { InboxStatsRepository } from './inbox-stats.repository.js';
import { INBOX_STATUSES } from './metric-labels.js';

/** A scrape never waits longer than this for the inbox statistics. */
const INBOX_QUERY_TIMEOUT_MS = 2000;

/**
 * The two inbox gauges, set at scrape time from one query. When the query fails or is slow,
 * the scrape still answers: a warning is logged and the gauges keep their last values (none
 * before the first success). Concurrent scrapes share one query.
 */
export function registerInboxGauges(registry: Registry, inbox: InboxStatsRepository): void {
  const logger = new Logger('Metrics');
  let query: Promise<InboxStats | undefined> | null = null;
  let refresh: Promise<void> | null = null;

  const refreshInbox = (): Promise<void> => {
    query ??= inbox
      .read()
      .then(
        (stats) => stats,
        (error: unknown) => {
          const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
          logger.warn(`inbox metrics not updated: ${reason}`);
          return undefined;
        },
      )
      .finally(() => {
        query = null;
      });
    refresh ??= withTimeout(query, INBOX_QUERY_TIMEOUT_MS)
      .then((stats) => {
        if (stats === 'timeout') {
          logger.warn(`inbox metrics not updated: the query took longer than ${INBOX_QUERY_TIMEOUT_MS} ms`);
        } else if (stats) {
          for (const status of INBOX_STATUSES) events.set({ status }, stats.counts[status]);
          oldest.set(stats.oldestUnprocessedSeconds);
        }
      })
      .finally(() => {
        refresh = null;
      });
    return refresh;
  };

  const events = new Gauge({
    name: 'wdd_inbox_events',
    help: 'Rows of the inbox per status (received, processing, failed, dead), read at scrape time.',
    labelNames: ['status'] as const,
    registers: [registry],
    collect: refreshInbox,
  });
  const oldest = new Gauge({
    name: 'wdd_inbox_oldest_unprocessed_seconds',
    help: 'Age of the oldest event received but not yet processed (received, processing or failed), read at scrape time; 0 when there is none.',
    registers: [registry],
    collect: refreshInbox,
  });
}

/** The work's value, or 'timeout' once `ms` have passed (the work goes on; its value is dropped). */
function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
