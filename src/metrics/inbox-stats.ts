import { INBOX_STATUSES, type InboxStatus } from './metric-labels.js';

/** One row of the inbox statistics query: a status, its row count and the age of its oldest row. */
export interface InboxStatusRow {
  status: string;
  count: number;
  oldest_seconds: number | null;
}

export interface InboxStats {
  /** Rows per status; 0 for a status without rows. */
  counts: Record<InboxStatus, number>;
  /** Age of the oldest event not yet finished (received, processing or failed); 0 when there is none. */
  oldestUnprocessedSeconds: number;
}

const UNFINISHED: ReadonlySet<string> = new Set<InboxStatus>(['received', 'processing', 'failed']);

export function toInboxStats(rows: readonly InboxStatusRow[]): InboxStats {
  const counts = Object.fromEntries(INBOX_STATUSES.map((s) => [s, 0])) as Record<InboxStatus, number>;
  let oldest = 0;
  for (const row of rows) {
    if (!(row.status in counts)) continue;
    counts[row.status as InboxStatus] = Number(row.count);
    if (UNFINISHED.has(row.status) && row.oldest_seconds !== null) oldest = Math.max(oldest, Number(row.oldest_seconds));
  }
  // Clocks: received_at and now() are both the database's, so the age is exact; a negative age cannot happen.
  return { counts, oldestUnprocessedSeconds: Math.max(0, oldest) };
}
