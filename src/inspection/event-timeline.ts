import type { MessageStatus } from './message-views.js';

export const TIMELINE_KINDS = ['received', 'duplicate', 'step', 'attempt-failed', 'delivery', 'delivery-failed', 'dead', 'replayed', 'processed'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** One thing that happened to an event, for its timeline (GET /messages/{id}, the console). */
export interface TimelineEntry {
  at: string;
  kind: TimelineKind;
  step?: string;
  destination?: string;
  attempt?: number;
  error?: string;
  /** duplicate: redeliveries suppressed in all (the entry is at the last one). */
  count?: number;
  /** replayed: from the start, every step again under a new key. */
  fromStart?: boolean;
}

/** A row of event_history: a failed attempt (of a step or a delivery) or a replay. */
export interface HistoryRow {
  at: string;
  kind: string;
  step: string | null;
  destination: string | null;
  attempt: number | null;
  dead: boolean;
  error: string | null;
}

export interface TimelineSources {
  receivedAt: Date;
  duplicateCount: number;
  lastDuplicateAt: Date | null;
  status: MessageStatus;
  processedAt: Date | null;
  steps: Array<{ step: string; attempt: number; completed_at: string }>;
  destinations: Array<{ destination: string; status: MessageStatus; attempts: number; completed_at: string | null }>;
  history: HistoryRow[];
}

const iso = (at: string | Date) => new Date(at).toISOString();

/**
 * The event's timeline, oldest first, from its row (received, redeliveries, processed), its
 * recovery points (steps done), its deliveries (delivered) and its history (failed attempts,
 * deaths, replays). Successes are read from where they are recorded anyway: the history holds
 * only what the happy path never writes.
 */
export function buildTimeline(event: TimelineSources): TimelineEntry[] {
  const entries: TimelineEntry[] = [{ at: iso(event.receivedAt), kind: 'received' }];
  for (const s of event.steps) entries.push({ at: iso(s.completed_at), kind: 'step', step: s.step, attempt: s.attempt });
  for (const d of event.destinations) {
    if (d.status === 'processed' && d.completed_at !== null) entries.push({ at: iso(d.completed_at), kind: 'delivery', destination: d.destination, attempt: d.attempts });
  }
  for (const h of event.history) entries.push(...fromHistory(h));
  if (event.duplicateCount > 0 && event.lastDuplicateAt !== null) entries.push({ at: iso(event.lastDuplicateAt), kind: 'duplicate', count: event.duplicateCount });
  if (event.status === 'processed' && event.processedAt !== null) entries.push({ at: iso(event.processedAt), kind: 'processed' });
  // Stable: entries written in one statement keep the order above (a step before the event's processed).
  return entries.map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.at.localeCompare(b.entry.at) || a.index - b.index)
    .map(({ entry }) => entry);
}

function fromHistory(h: HistoryRow): TimelineEntry[] {
  const at = iso(h.at);
  const where = h.destination === null ? {} : { destination: h.destination };
  if (h.kind === 'replay' || h.kind === 'replay-start') return [{ at, kind: 'replayed', ...where, fromStart: h.kind === 'replay-start' }];
  const what = { ...where, ...(h.step === null ? {} : { step: h.step }), ...(h.attempt === null ? {} : { attempt: h.attempt }) };
  const failed: TimelineEntry = { at, kind: h.kind === 'delivery' ? 'delivery-failed' : 'attempt-failed', ...what, ...(h.error === null ? {} : { error: h.error }) };
  return h.dead ? [failed, { at, kind: 'dead', ...what }] : [failed];
}
