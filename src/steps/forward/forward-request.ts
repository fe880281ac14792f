import { createHmac } from 'node:crypto';
import type { NormalizedEvent } from '../../events/normalized-event.js';

/** The JSON body the forward step POSTs: the normalized event, identical on every attempt. */
export interface ForwardedEvent {
  id: string;
  provider: NormalizedEvent['provider'];
  kind: NormalizedEvent['kind'];
  type: string;
  from: string | null;
  fromMe: boolean;
  timestamp: string | null;
  receivedAt: string;
  payload: Record<string, unknown>;
}

export interface ForwardRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * Body and headers for one event. The body carries nothing attempt-specific, so a downstream
 * that stores (Idempotency-Key, body hash) pairs sees the same pair on a retry; the attempt
 * number travels in a header instead.
 */
export function buildForwardRequest(event: NormalizedEvent, receivedAt: Date, attempt: number, secret?: string): ForwardRequest {
  const forwarded: ForwardedEvent = {
    id: event.key,
    provider: event.provider,
    kind: event.kind,
    type: event.type,
    from: event.sender,
    fromMe: event.fromMe,
    timestamp: event.providerTimestamp?.toISOString() ?? null,
    receivedAt: receivedAt.toISOString(),
    payload: event.raw,
  };
  const body = JSON.stringify(forwarded);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'idempotency-key': headerSafeKey(event.key),
    'x-delivery-attempt': String(attempt),
    'user-agent': 'whatsapp-webhook-dedup',
  };
  if (secret) headers['x-signature-256'] = `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
  return { body, headers };
}

/**
 * Keys are printable ASCII for every provider id we have seen; a generic-shape id may hold
 * anything, and a header cannot. Such a key is sent percent-encoded (decodeURIComponent
 * restores it; the body's `id` always has it verbatim).
 */
export function headerSafeKey(key: string): string {
  return /^[\x21-\x7e]+$/.test(key) ? key : encodeURIComponent(key);
}

/** Retry-After as milliseconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
