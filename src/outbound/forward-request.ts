import { createHmac } from 'node:crypto';
import { signStandardWebhook } from '../common/standard-webhooks.js';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import { effectKey } from './effect-key.js';

/** The JSON body the forward step POSTs: the normalized event, identical on every attempt. */
export interface ForwardedEvent {
  id: string;
  provider: NormalizedEvent['source'];
  kind: NormalizedEvent['kind'];
  type: string;
  /** The other party: its phone number (or chat id), else its business-scoped user id. */
  from: string | null;
  /** The other party's business-scoped user id, when the source gave one. */
  fromUserId: string | null;
  /** The business number or instance the event belongs to. */
  tenant: string | null;
  fromMe: boolean;
  /** The webhook request carried a valid signature of its source. */
  authenticated: boolean;
  timestamp: string | null;
  receivedAt: string;
  /** 0, or n for the n-th operator replay from the start. */
  replay: number;
  payload: Record<string, unknown>;
}

/** Which attempt of which effect a request is. */
export interface ForwardAttempt {
  receivedAt: Date;
  attempt: number;
  replay: number;
}

export interface ForwardRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * Body and headers for one event. The body carries nothing attempt-specific, so a downstream
 * that stores (Idempotency-Key, body hash) pairs sees the same pair on a retry; the attempt
 * number travels in a header instead. Signed two ways with `keys` (FORWARD_SECRET): Standard
 * Webhooks (webhook-id/-timestamp/-signature, one signature per key, so receivers holding any
 * key verify during a rotation) and X-Signature-256 over the body with the first key.
 * Idempotency-Key and webhook-id are the same: stable across retries, new for each replay.
 */
export function buildForwardRequest(event: NormalizedEvent, at: ForwardAttempt, keys: readonly Buffer[], nowMs = Date.now()): ForwardRequest {
  const body = JSON.stringify(toForwardedEvent(event, at));
  const id = headerSafeKey(effectKey(event.key, at.replay));
  const timestamp = Math.floor(nowMs / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'idempotency-key': id,
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'x-delivery-attempt': String(at.attempt),
    'user-agent': 'whatsapp-webhook-dedup',
  };
  if (at.replay > 0) headers['x-replay'] = String(at.replay);
  if (keys.length > 0) {
    headers['webhook-signature'] = signStandardWebhook(keys, id, timestamp, body);
    headers['x-signature-256'] = `sha256=${createHmac('sha256', keys[0]).update(body, 'utf8').digest('hex')}`;
  }
  return { body, headers };
}

/** The event as a destination receives it (and as destination filters see it). */
export function toForwardedEvent(event: NormalizedEvent, at: Pick<ForwardAttempt, 'receivedAt' | 'replay'>): ForwardedEvent {
  return {
    id: event.key,
    provider: event.source,
    kind: event.kind,
    type: event.type,
    from: event.sender,
    fromUserId: event.userId,
    tenant: event.tenant,
    fromMe: event.fromMe,
    authenticated: event.authenticated,
    timestamp: event.providerTimestamp?.toISOString() ?? null,
    receivedAt: at.receivedAt.toISOString(),
    replay: at.replay,
    payload: event.raw,
  };
}

/**
 * Keys are printable ASCII for every source id we have seen; a generic-shape id may hold
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
