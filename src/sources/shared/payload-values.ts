import { InvalidPayloadError } from '../../common/domain-errors.js';
import { microsToMillis, parseIsoDateTime } from '../../common/iso-date-time.js';

/**
 * Defensive readers for untrusted webhook JSON. Providers change shapes without notice,
 * so every reader answers "nothing usable" (null, []) instead of throwing.
 */

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Items of an array, or the value itself when a source sends one object where it usually sends a list. */
export function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null ? [] : [value];
}

/** Items of an array only: for fields whose documented shape is always a list. */
export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The nested object at `path`, or null as soon as one step is not an object. */
export function objectAt(value: unknown, ...path: string[]): JsonObject | null {
  let current: unknown = value;
  for (const step of path) {
    if (!isJsonObject(current)) return null;
    current = current[step];
  }
  return isJsonObject(current) ? current : null;
}

/** A non-blank string, as is; anything else is null. Used for source ids. */
export function readString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** A non-blank string or a finite number as text: ids and phone numbers sometimes arrive as numbers. */
export function readText(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  return readString(value);
}

/** Above this a numeric timestamp is taken as milliseconds; seconds only reach it in the year 33658. */
const MILLISECONDS_THRESHOLD = 1e12;

/**
 * Unix seconds or milliseconds (number or numeric string), an ISO 8601 date or date-time, or an
 * RFC 2822 / HTTP date. A time without a zone is UTC, never the server's local time, so the
 * result does not depend on where the service runs. Anything unreadable (an impossible date
 * too) is null: a missing time must not cost the event, a wrong one could make it look stale.
 */
export function readTimestamp(value: unknown): Date | null {
  let millis: number;
  if (typeof value === 'number') {
    millis = toMillis(value);
  } else if (typeof value === 'string' && value.trim() !== '') {
    const numeric = Number(value);
    millis = Number.isFinite(numeric) ? toMillis(numeric) : parseDateText(value.trim());
  } else {
    return null;
  }
  // Outside 1970–9999 a source's time is garbage, and PostgreSQL would reject some of it.
  if (!Number.isFinite(millis) || millis < 0 || millis > LATEST_MILLIS) return null;
  return new Date(millis);
}

/** `Sun, 29 Nov 2026 10:00:00 GMT` (Date#toUTCString, HTTP) or `29 Nov 2026 10:00 +0200`; no zone is UTC. */
const RFC_2822 = /^(?:[a-z]{3},\s*)?(\d{1,2})\s+([a-z]{3})\s+(\d{4})\s+(\d{2}:\d{2}(?::\d{2})?)(?:\s+(?:gmt|ut|utc|z|([+-]\d{2})(\d{2})))?$/i;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Both forms go through the same strict reader: Date.parse would roll 31 Feb over into March. */
function parseDateText(text: string): number {
  const rfc = RFC_2822.exec(text);
  const month = rfc === null ? -1 : MONTHS.indexOf(rfc[2]!.toLowerCase());
  const iso = rfc === null || month < 0 ? text : `${rfc[3]}-${String(month + 1).padStart(2, '0')}-${rfc[1]!.padStart(2, '0')}T${rfc[4]}${rfc[5] === undefined ? 'Z' : `${rfc[5]}:${rfc[6]}`}`;
  const micros = parseIsoDateTime(iso, { complete: false });
  return micros === null ? Number.NaN : microsToMillis(micros);
}

const LATEST_MILLIS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function toMillis(value: number): number {
  return Math.abs(value) > MILLISECONDS_THRESHOLD ? value : value * 1000;
}
