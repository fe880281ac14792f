import { listOf, objectAt, readString, readText, readTimestamp } from './payload-values.js';

describe('payload readers', () => {
  it('listOf treats one object as a list of one and nothing as none', () => {
    expect(listOf([1, 2])).toEqual([1, 2]);
    expect(listOf({ a: 1 })).toEqual([{ a: 1 }]);
    expect(listOf(undefined)).toEqual([]);
    expect(listOf(null)).toEqual([]);
  });

  it('objectAt stops at the first step that is not an object', () => {
    expect(objectAt({ a: { b: { c: 1 } } }, 'a', 'b')).toEqual({ c: 1 });
    expect(objectAt({ a: [] }, 'a')).toBeNull();
    expect(objectAt({ a: 'x' }, 'a', 'b')).toBeNull();
  });

  it('readString accepts only non-blank strings; readText also finite numbers', () => {
    expect(readString('id')).toBe('id');
    expect([readString(''), readString('  '), readString(5), readString(null)]).toEqual([null, null, null, null]);
    expect(readText(42)).toBe('42');
    expect([readText(Infinity), readText(NaN), readText({})]).toEqual([null, null, null]);
  });

  it('readTimestamp drops times outside 1970–9999, which PostgreSQL may not store', () => {
    expect(readTimestamp('-8000000000000000')).toBeNull();
    expect(readTimestamp(8.64e15)).toBeNull();
    expect(readTimestamp('+275760-09-13T00:00:00Z')).toBeNull();
  });

  it('readTimestamp reads seconds and milliseconds, as numbers or strings, and ISO dates', () => {
    expect(readTimestamp(1750031000)).toEqual(new Date(1750031000000));
    expect(readTimestamp('1750031000')).toEqual(new Date(1750031000000));
    expect(readTimestamp(1750031010123)).toEqual(new Date(1750031010123));
    expect(readTimestamp('2025-06-15T23:43:20Z')).toEqual(new Date('2025-06-15T23:43:20Z'));
  });

  it('readTimestamp reads a date-time without a zone as UTC, never in the server’s time zone', () => {
    // On a server outside UTC, Date.parse would read these in its local time (the e2e test
    // test/process-environment.e2e-spec.ts runs the service with TZ=Asia/Tokyo to prove it).
    expect(readTimestamp('2026-11-29T10:00:00')).toEqual(new Date(Date.UTC(2026, 10, 29, 10)));
    expect(readTimestamp('2026-11-29 10:00:00.250')).toEqual(new Date(Date.UTC(2026, 10, 29, 10, 0, 0, 250)));
    expect(readTimestamp('2026-11-29T10:00')).toEqual(new Date(Date.UTC(2026, 10, 29, 10)));
    expect(readTimestamp('2026-11-29')).toEqual(new Date(Date.UTC(2026, 10, 29)));
    expect(readTimestamp('Sun, 29 Nov 2026 10:00:00')).toEqual(new Date(Date.UTC(2026, 10, 29, 10)));
  });

  it('readTimestamp honours a zone when one is given', () => {
    expect(readTimestamp('2026-11-29T10:00:00+02:00')).toEqual(new Date(Date.UTC(2026, 10, 29, 8)));
    expect(readTimestamp('2026-11-29T10:00:00.123456-0130')).toEqual(new Date(Date.UTC(2026, 10, 29, 11, 30, 0, 123)));
    expect(readTimestamp('Sun, 29 Nov 2026 10:00:00 GMT')).toEqual(new Date(Date.UTC(2026, 10, 29, 10)));
    expect(readTimestamp('29 Nov 2026 10:00 +0200')).toEqual(new Date(Date.UTC(2026, 10, 29, 8)));
  });

  it('readTimestamp answers null for impossible dates and for text Date.parse would guess at', () => {
    for (const value of ['2026-02-30T10:00:00Z', '2026-02-29', '31 Feb 2026 10:00:00 GMT', '2026-11-29T25:00:00', '1 2 3', 'May 2026', '29 Nov 2026 10:00 PST']) {
      expect(readTimestamp(value)).toBeNull();
    }
  });

  it('readTimestamp answers null for anything unreadable', () => {
    for (const value of [undefined, null, '', 'soon', {}, [], Infinity, 1e300, true]) {
      expect(readTimestamp(value)).toBeNull();
    }
  });
});
