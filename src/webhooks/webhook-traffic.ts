import { detectSource } from '../sources/source-registry.js';
import { SOURCE_LABELS, type WebhookRequestOutcome, type SourceLabel } from '../metrics/metric-labels.js';

const WEBHOOK_PATH = /^\/webhook(?:\/([^/?]*)(?:\/([^/?]*))?)?\/?(?:\?|$)/;

/** A webhook POST's URL: the source it names ('' for /webhook itself) and what follows it ('' for nothing). */
export interface WebhookRoute {
  source: string;
  /** One more path segment, e.g. the event name Evolution API appends with WEBHOOK_BY_EVENTS. */
  suffix: string;
}

/**
 * Whether a request is a webhook request (POST /webhook, /webhook/<source> or
 * /webhook/<source>/<suffix>, any query string or trailing slash), and where it points.
 */
export function webhookRoute(method: string | undefined, url: string | undefined): WebhookRoute | undefined {
  if (method !== 'POST' || url === undefined) return undefined;
  const match = WEBHOOK_PATH.exec(url);
  return match ? { source: match[1] ?? '', suffix: match[2] ?? '' } : undefined;
}

/**
 * The outcome of a webhook request from the status it was answered with; `aborted` when the
 * connection closed before the answer was sent (the source gave up waiting).
 */
export function webhookRequestOutcome(statusCode: number, answered: boolean): WebhookRequestOutcome {
  if (!answered) return 'aborted';
  if (statusCode >= 200 && statusCode < 300) return 'ok';
  if (statusCode === 401) return 'signature_rejected';
  if (statusCode === 403) return 'source_disabled';
  if (statusCode === 503) return 'unavailable';
  if (statusCode >= 400 && statusCode < 500) return 'invalid'; // 400, and 413/415 from the body parser
  return 'error';
}

/**
 * The source of a webhook request: the one its URL names, else the one its parsed body's shape
 * belongs to (the rule POST /webhook uses); `unknown` for a URL naming no source, or no JSON object.
 */
export function sourceLabel(urlSource: string, body: unknown): SourceLabel {
  if (urlSource !== '') return (SOURCE_LABELS as readonly string[]).includes(urlSource) ? (urlSource as SourceLabel) : 'unknown';
  if (typeof body !== 'object' || body === null) return 'unknown';
  try {
    return detectSource(body);
  } catch {
    return 'unknown';
  }
}
