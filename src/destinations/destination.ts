import { keyBytes, MIN_KEY_BYTES, WHSEC_PATTERN } from '../config/whsec.js';
import type { EventKind } from '../sources/shared/normalized-event.js';
import type { SourceName } from '../sources/source-registry.js';
import { checkKeys, isMapping, ownValue, type ReportProblem } from '../common/settings-file.js';

export type JsonScalar = string | number | boolean | null;

/**
 * Which events a destination receives. Every given criterion must hold; a criterion left out
 * holds for every event, so the empty filter takes everything.
 */
export interface DestinationFilter {
  /** Any of these sources (the forwarded event's `provider`). */
  source?: SourceName[];
  kind?: EventKind[];
  /** Any of these types (text, image…, delivered, read…), compared exactly. */
  type?: string[];
  /** Any of these tenants; an event without a tenant matches no list. */
  tenant?: string[];
  /**
   * Every entry must match: a dotted path into the forwarded event (ForwardedEvent: id,
   * provider, kind, type, from, fromUserId, tenant, fromMe, authenticated, timestamp,
   * receivedAt, replay, payload.…) to a scalar or a list of scalars (any of). Array indexes are
   * path segments (payload.entry.0.id); see matchesFilter for lists met on the way.
   */
  match?: Record<string, JsonScalar | JsonScalar[]>;
}

export const DESTINATION_ORDERINGS = ['none', 'conversation'] as const;
export type DestinationOrdering = (typeof DESTINATION_ORDERINGS)[number];

export interface DestinationRateLimit {
  /** Sustained requests per second; fractions allowed (0.5: one every two seconds). */
  perSecond: number;
  /** Requests that may go out at once after a quiet period. */
  burst: number;
}

/** When a destination is taken out of rotation, and how it is tried again. */
export interface DestinationCircuitBreaker {
  /** Consecutive failures (5xx, timeouts, connection errors) that open the circuit. */
  failures: number;
  /** While open, one delivery is tried (the probe) this often; its success closes the circuit. */
  probeIntervalMs: number;
}

export const DEFAULT_CIRCUIT_BREAKER: DestinationCircuitBreaker = { failures: 5, probeIntervalMs: 30_000 };

/** One downstream URL and the events it receives, as read from DESTINATIONS_FILE. */
export interface Destination {
  /** Unique; a bounded metric label and part of keys, hence DESTINATION_NAME. */
  name: string;
  url: string;
  /** FORWARD_SECRET rules; several during a rotation; empty: requests go unsigned. */
  secrets: string[];
  timeoutMs: number;
  filter: DestinationFilter;
  /** `conversation`: one conversation's events are delivered in order, one at a time. */
  ordering: DestinationOrdering;
  /** How long a conversation's event may be held back for an earlier one (ordering conversation only). */
  reorderWindowMs: number;
  rateLimit: DestinationRateLimit | null;
  circuitBreaker: DestinationCircuitBreaker;
  maxAttempts: number;
  /** A disabled destination is still validated, so enabling it later cannot break the boot. */
  enabled: boolean;
}

/** Lowercase only, so names cannot differ by case alone in labels and keys. */
export const DESTINATION_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export const DESTINATION_LIMITS = {
  timeoutMs: { min: 100, max: 120_000 },
  reorderWindowMs: { min: 0, max: 60_000 },
  maxPerSecond: 10_000,
  maxAttempts: { min: 1, max: 100 },
  breakerFailures: { min: 1, max: 1000 },
  probeIntervalMs: { min: 100, max: 3_600_000 },
} as const;

// Reading one setting of DESTINATIONS_FILE: each reader reports what is wrong and lets the
// caller go on, so that one boot lists every problem of the file.

/** Same rules as FORWARD_SECRET; a secret's value never appears in a message. */
export function readSecrets(value: unknown, report: ReportProblem): string[] {
  const items: unknown[] = value === undefined ? [] : Array.isArray(value) ? value : [value];
  items.forEach((secret, index) => {
    const field = Array.isArray(value) ? `secret #${index + 1}` : 'secret';
    if (typeof secret !== 'string') report(field, 'must be a string (in quotes if it looks like a number)');
    else if (!secret.startsWith('whsec_')) {
      if (secret.length < 8) report(field, 'must be at least 8 characters');
    } else if (!WHSEC_PATTERN.test(secret)) report(field, 'must be whsec_ followed by base64');
    else if (keyBytes(secret) < MIN_KEY_BYTES) report(field, `must hold at least ${MIN_KEY_BYTES} bytes after whsec_`);
  });
  return items.filter((secret): secret is string => typeof secret === 'string');
}

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

/** A number of milliseconds, or a string with a unit: `500ms`, `10s`, `1.5s`, `2m`. */
export function parseDuration(value: unknown): number {
  if (typeof value === 'number') return value;
  const parts = typeof value === 'string' ? DURATION.exec(value.trim()) : null;
  // Rounded to a microsecond first: 1.1 * 1000 is 1100.0000000000002 in floating point.
  return parts ? Math.round(Number(parts[1]) * UNIT_MS[parts[2] as keyof typeof UNIT_MS] * 1000) / 1000 : NaN;
}

export function readDuration(value: unknown, field: string, range: { min: number; max: number }, report: ReportProblem): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseDuration(value);
  if (!Number.isInteger(ms)) report(field, 'must be a whole number of milliseconds or a duration like 500ms, 10s or 2m');
  else if (ms < range.min || ms > range.max) report(field, `must be between ${range.min} and ${range.max} ms`);
  else return ms;
  return undefined;
}

export function readInteger(value: unknown, field: string, range: { min: number; max: number }, report: ReportProblem): number | undefined {
  if (value === undefined) return undefined;
  if (Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max) return value as number;
  report(field, `must be a whole number between ${range.min} and ${range.max}`);
  return undefined;
}

export function readRateLimit(value: unknown, report: ReportProblem): Destination['rateLimit'] {
  if (value === undefined) return null;
  if (!isMapping(value)) {
    report('rateLimit', 'must be a mapping like { perSecond: 20, burst: 40 }');
    return null;
  }
  checkKeys(value, ['perSecond', 'burst'], 'rateLimit.', report);
  const perSecond = ownValue(value, 'perSecond') ?? undefined;
  const burst = ownValue(value, 'burst') ?? undefined;
  if (perSecond === undefined) report('rateLimit.perSecond', 'is required');
  else if (typeof perSecond !== 'number' || !(perSecond > 0) || !Number.isFinite(perSecond)) report('rateLimit.perSecond', 'must be a positive number');
  else if (perSecond > DESTINATION_LIMITS.maxPerSecond) report('rateLimit.perSecond', `must be at most ${DESTINATION_LIMITS.maxPerSecond}`);
  if (burst !== undefined && !(Number.isSafeInteger(burst) && (burst as number) >= 1)) report('rateLimit.burst', 'must be a whole number of at least 1');
  if (typeof perSecond !== 'number') return null;
  return { perSecond, burst: typeof burst === 'number' ? burst : Math.max(1, Math.ceil(perSecond)) };
}

export function readCircuitBreaker(value: unknown, report: ReportProblem): DestinationCircuitBreaker {
  if (value === undefined) return DEFAULT_CIRCUIT_BREAKER;
  if (!isMapping(value)) {
    report('circuitBreaker', "must be a mapping like { failures: 5, probeInterval: '30s' }");
    return DEFAULT_CIRCUIT_BREAKER;
  }
  checkKeys(value, ['failures', 'probeInterval'], 'circuitBreaker.', report);
  return {
    failures: readInteger(ownValue(value, 'failures') ?? undefined, 'circuitBreaker.failures', DESTINATION_LIMITS.breakerFailures, report) ?? DEFAULT_CIRCUIT_BREAKER.failures,
    probeIntervalMs: readDuration(ownValue(value, 'probeInterval') ?? undefined, 'circuitBreaker.probeInterval', DESTINATION_LIMITS.probeIntervalMs, report)
      ?? DEFAULT_CIRCUIT_BREAKER.probeIntervalMs,
  };
}
