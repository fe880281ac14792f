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

  it('readTimestamp answers null for anything unreadable', () => {
    for (const value of [undefined, null, '', 'soon', {}, [], Infinity, 1e300, true]) {
      expect(readTimestamp(value)).toBeNull();
    }
  });
});
