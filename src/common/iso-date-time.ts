/**
 * ISO 8601 calendar date-times, read without Date.parse: it takes a date-time without an offset
 * in the process's local time zone, and rolls impossible dates over (2026-02-30 is 2 March).
 * Here a missing offset means UTC, and an impossible date is no date.
 */

/** RFC 3339's profile: seconds, an optional fraction and an offset (`Z` or `±hh:mm`), nothing optional beyond that. */
const COMPLETE =
  /^(?<y>\d{4})-(?<mo>\d{2})-(?<d>\d{2})[Tt](?<h>\d{2}):(?<mi>\d{2}):(?<s>\d{2})(?:\.(?<f>\d{1,9}))?(?:[Zz]|(?<sign>[+-])(?<oh>\d{2}):(?<om>\d{2}))$/;

/** What sources send: a date alone, `T` or a space, minutes or seconds, any fraction, and an offset or none (UTC). */
const LENIENT =
  /^(?<y>\d{4})-(?<mo>\d{2})-(?<d>\d{2})(?:[Tt ](?<h>\d{2}):(?<mi>\d{2})(?::(?<s>\d{2})(?:[.,](?<f>\d+))?)?(?:[Zz]|(?<sign>[+-])(?<oh>\d{2})(?::?(?<om>\d{2}))?)?)?$/;

/** PostgreSQL's timestamptz range is wider; 4-digit years are what both ends can write and read back. */
const EARLIEST_MICROS = BigInt(Date.parse('0001-01-01T00:00:00Z')) * 1000n;
const LATEST_MICROS = BigInt(Date.parse('9999-12-31T23:59:59.999Z')) * 1000n + 999n;

/**
 * The instant a date-time names, in microseconds since the epoch (PostgreSQL's precision);
 * null when it is not one, names an impossible date or time, or lies outside years 1–9999.
 * `complete` demands RFC 3339 (seconds and an offset); otherwise the lenient form is read,
 * a missing offset meaning UTC. Digits beyond the microsecond round up: against microsecond
 * values, `>= t` and `< t` then mean exactly what they would with the full fraction.
 */
export function parseIsoDateTime(text: string, { complete }: { complete: boolean }): bigint | null {
  const parts = (complete ? COMPLETE : LENIENT).exec(text)?.groups;
  if (parts === undefined) return null;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = ['y', 'mo', 'd', 'h', 'mi', 's', 'oh', 'om'].map((name) => Number(parts[name] ?? 0));
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day); // not Date.UTC: it reads years 0–99 as 1900–1999
  utc.setUTCHours(hour, minute, second, 0);
  const offsetMs = (parts.sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const fraction = parts.f ?? '';
  const nanos = BigInt(fraction.slice(0, 9).padEnd(9, '0')) + (/[1-9]/.test(fraction.slice(9)) ? 1n : 0n);
  const micros = BigInt(utc.getTime() - offsetMs) * 1000n + (nanos + 999n) / 1000n;
  return micros < EARLIEST_MICROS || micros > LATEST_MICROS ? null : micros;
}

/** Microseconds since the epoch as UTC text that PostgreSQL reads back exactly: `2026-11-29T08:00:00.123456Z`. */
export function microsToIsoText(micros: bigint): string {
  const millis = floorDiv(micros, 1000n);
  const rest = micros - millis * 1000n;
  return new Date(Number(millis)).toISOString().replace('Z', `${rest.toString().padStart(3, '0')}Z`);
}

/** Milliseconds since the epoch (JavaScript's precision), the microseconds cut off. */
export function microsToMillis(micros: bigint): number {
  return Number(floorDiv(micros, 1000n));
}

function floorDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  return a % b < 0n ? quotient - 1n : quotient;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}
