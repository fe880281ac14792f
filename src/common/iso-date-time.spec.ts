import { microsToIsoText, microsToMillis, parseIsoDateTime } from './iso-date-time.js';

const complete = (text: string) => parseIsoDateTime(text, { complete: true });
const lenient = (text: string) => parseIsoDateTime(text, { complete: false });
const micros = (iso: string, extra = 0n) => BigInt(Date.parse(iso)) * 1000n + extra;

describe('parseIsoDateTime', () => {
  it('reads RFC 3339 date-times with Z or an offset, to the microsecond', () => {
    expect(complete('2026-11-29T00:00:00Z')).toBe(micros('2026-11-29T00:00:00Z'));
    expect(complete('2026-11-29t00:00:00z')).toBe(micros('2026-11-29T00:00:00Z'));
    expect(complete('2026-11-29T00:00:00.123+02:00')).toBe(micros('2026-11-28T22:00:00.123Z'));
    expect(complete('2026-11-29T00:00:00.123456-05:30')).toBe(micros('2026-11-29T05:30:00.123Z', 456n));
    expect(complete('2026-11-29T00:00:00-00:00')).toBe(micros('2026-11-29T00:00:00Z'));
    expect(complete('2024-02-29T23:59:59.999999Z')).toBe(micros('2024-02-29T23:59:59.999Z', 999n));
  });

  it('rounds digits beyond the microsecond up, so >= and < against microsecond values stay exact', () => {
    expect(complete('2026-11-29T00:00:00.0000001Z')).toBe(micros('2026-11-29T00:00:00Z', 1n));
    expect(complete('2026-11-29T00:00:00.000001000Z')).toBe(micros('2026-11-29T00:00:00Z', 1n));
    expect(complete('2026-11-29T23:59:59.9999999Z')).toBe(micros('2026-11-30T00:00:00Z'));
    expect(lenient('2026-11-29T00:00:00.0000000000001')).toBe(micros('2026-11-29T00:00:00Z', 1n));
  });

  it.each([
    '2026-W48', '2026-W48-7', '2026-333', '2026-11-29', '2026-11-29T00:00:00', '2026-11-29T00:00Z', '2026-11-29 00:00:00Z',
    '2026-11-29T00:00:00+0200', '2026-11-29T00:00:00+02', '2026-11-29T00:00:00.Z', '2026-11-29T00:00:00.1234567890Z',
    '20261129T000000Z', '+002026-11-29T00:00:00Z', '2026-11-29T00:00:00Z ', 'yesterday', '',
  ])('refuses %j where a complete date-time with an offset is required', (text) => {
    expect(complete(text)).toBeNull();
  });

  it.each([
    '2026-02-30T00:00:00Z', '2026-02-29T00:00:00Z', '2100-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z', '2026-11-00T00:00:00Z', '2026-11-29T24:00:00Z', '2026-11-29T23:60:00Z', '2026-11-29T23:59:60Z',
    '2026-11-29T00:00:00+24:00', '2026-11-29T00:00:00+02:60', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00+00:01',
    '9999-12-31T23:59:59-00:01',
  ])('refuses the impossible or unwritable %j', (text) => {
    expect(complete(text)).toBeNull();
    expect(lenient(text)).toBeNull();
  });

  it('reads years 1–9999 exactly, years below 100 included', () => {
    expect(microsToIsoText(complete('0001-01-01T00:00:00Z')!)).toBe('0001-01-01T00:00:00.000000Z');
    expect(microsToIsoText(complete('0099-03-01T12:00:00+12:00')!)).toBe('0099-03-01T00:00:00.000000Z');
    expect(microsToIsoText(complete('9999-12-31T23:59:59.999999Z')!)).toBe('9999-12-31T23:59:59.999999Z');
  });

  it('reads what providers send leniently: a date, no offset (UTC), a space, minutes, a comma, hour offsets', () => {
    expect(lenient('2026-11-29')).toBe(micros('2026-11-29T00:00:00Z'));
    expect(lenient('2026-11-29T10:00:00')).toBe(micros('2026-11-29T10:00:00Z'));
    expect(lenient('2026-11-29 10:00')).toBe(micros('2026-11-29T10:00:00Z'));
    expect(lenient('2026-11-29T10:00:00,5')).toBe(micros('2026-11-29T10:00:00.500Z'));
    expect(lenient('2026-11-29T10:00:00+02')).toBe(micros('2026-11-29T08:00:00Z'));
    expect(lenient('2026-11-29T10:00:00-0130')).toBe(micros('2026-11-29T11:30:00Z'));
    expect(lenient('2026-11-29T10:00:00.123456789Z')).toBe(micros('2026-11-29T10:00:00.123Z', 457n));
    expect(lenient('2026-11-29Z')).toBeNull(); // an offset needs a time
  });
});

describe('microsToIsoText and microsToMillis', () => {
  it('write UTC text PostgreSQL reads back exactly, and cut to JavaScript milliseconds', () => {
    const value = micros('2026-11-29T08:00:00.123Z', 456n);
    expect(microsToIsoText(value)).toBe('2026-11-29T08:00:00.123456Z');
    expect(microsToMillis(value)).toBe(Date.parse('2026-11-29T08:00:00.123Z'));
    const beforeEpoch = micros('1969-12-31T23:59:59.999Z', 1n);
    expect(microsToIsoText(beforeEpoch)).toBe('1969-12-31T23:59:59.999001Z');
    expect(microsToMillis(beforeEpoch)).toBe(-1);
  });
});
