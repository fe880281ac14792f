import { createHash } from 'node:crypto';
import { InvalidQueryError } from '../common/domain-errors.js';
import { instantText } from './message-filter-sql.js';
import type { MessageFilter, MessageStatus } from './message-views.js';

/** The bulk replay's query as the controller hands it over (validated by BulkReplayQuery). */
export interface BulkReplayParams extends MessageFilter {
  destination?: string;
  fromStart?: boolean;
  dryRun?: boolean;
}

/** What to replay, normalized: the same request always reads the same here, whatever its spelling. */
export interface BulkReplayRequest {
  /** GET /messages' filters on the events; since/until as exact UTC text. */
  filter: Omit<MessageFilter, 'status'>;
  /** The status filter (the event's, or with a destination the delivery's), if any. */
  status: MessageStatus | null;
  /** The statuses replayed: what the mode allows, narrowed by `status`. */
  statuses: MessageStatus[];
  destination: string | null;
  fromStart: boolean;
}

// Printable ASCII only: the key is echoed in error messages and stored as varchar(255).
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

export function checkIdempotencyKey(key: string): void {
  if (!IDEMPOTENCY_KEY.test(key)) throw new InvalidQueryError('the Idempotency-Key header must be 1 to 255 printable ASCII characters');
}

/**
 * Like the single replay, only dead and failed rows go back to work unless fromStart also takes
 * processed ones; received and processing rows are already waiting or running, so a status
 * filter naming them (or processed without fromStart) would silently replay nothing: refused.
 */
export function toBulkReplayRequest(params: BulkReplayParams): BulkReplayRequest {
  const fromStart = params.fromStart === true;
  const destination = params.destination ?? null;
  const allowed: MessageStatus[] = fromStart ? ['dead', 'failed', 'processed'] : ['dead', 'failed'];
  const status = params.status ?? null;
  if (status !== null && !allowed.includes(status)) {
    const rows = destination === null ? 'events' : 'deliveries';
    throw new InvalidQueryError(status === 'processed'
      ? `status=processed needs fromStart=true: without it only dead and failed ${rows} are replayed`
      : `status=${status} cannot be replayed: ${status} ${rows} are already waiting or being worked on (status may be dead, failed, or processed with fromStart=true)`);
  }
  const filter: Omit<MessageFilter, 'status'> = {
    provider: params.provider, kind: params.kind, type: params.type, from: params.from, tenant: params.tenant,
    since: instantText('since', params.since), until: instantText('until', params.until),
  };
  return { filter, status, statuses: status === null ? allowed : [status], destination, fromStart };
}

/** SHA-256 of the request in a fixed order: a repeat with the same Idempotency-Key must match it. */
export function requestHash(request: BulkReplayRequest): string {
  const { filter: f } = request;
  const canonical = [f.provider, f.kind, f.type, f.from, f.tenant, f.since, f.until, request.status, request.destination, request.fromStart]
    .map((value) => value ?? null);
  return createHash('sha256').update(JSON.stringify(['bulk-replay/1', ...canonical])).digest('hex');
}
