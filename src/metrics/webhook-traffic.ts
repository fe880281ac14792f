import { detectProvider } from '../events/detect-provider.js';
import type { DeliveryOutcome, ProviderLabel } from './metric-labels.js';

/** Whether a request is a webhook delivery (POST /webhook, any query string or trailing slash). */
export function isWebhookPost(method: string | undefined, url: string | undefined): boolean {
  if (method !== 'POST' || url === undefined) return false;
  const end = url.indexOf('?');
  const path = end === -1 ? url : url.slice(0, end);
  return path === '/webhook' || path === '/webhook/';
}

/**
 * The outcome of a delivery from the status it was answered with; `aborted` when the
 * connection closed before the answer was sent (the provider gave up waiting).
 */
export function deliveryOutcome(statusCode: number, answered: boolean): DeliveryOutcome {
  if (!answered) return 'aborted';
  if (statusCode >= 200 && statusCode < 300) return 'ok';
  if (statusCode === 401) return 'signature_rejected';
  if (statusCode === 503) return 'unavailable';
  if (statusCode >= 400 && statusCode < 500) return 'invalid'; // 400, and 413/415 from the body parser
  return 'error';
}

/** The provider a parsed body came from, by the same rule the service uses; `unknown` when there is no JSON object. */
export function providerLabel(body: unknown): ProviderLabel {
  if (typeof body !== 'object' || body === null) return 'unknown';
  try {
    return detectProvider(body);
  } catch {
    return 'unknown';
  }
}
