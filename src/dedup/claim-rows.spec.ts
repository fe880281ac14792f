import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import { toStorableJson } from '../common/storable-json.js';
import { mergeClaimRows, toClaimRow } from './claim-rows.js';

const event = (key: string, raw: Record<string, unknown> = {}): NormalizedEvent => ({
  key, source: 'meta', kind: 'message', type: 'text', sender: null, userId: null, tenant: null, providerTimestamp: null, fromMe: false, authenticated: false, raw,
});

describe('mergeClaimRows', () => {
  it('keeps one row per key, the first occurrence, counting the copies, sorted by key', () => {
    const rows = mergeClaimRows([event('b', { n: 1 }), event('a'), event('b', { n: 2 }), event('c'), event('b')].map(toClaimRow));
    expect(rows.map((r) => [r.key, r.copies])).toEqual([['a', 1], ['b', 3], ['c', 1]]);
    expect(JSON.parse(rows[1].payload)).toEqual({ n: 1 });
  });
});

describe('toStorableJson', () => {
  it('replaces NUL characters, which jsonb rejects, and leaves everything else as JSON.stringify makes it', () => {
    const value = { a: 'x\u0000y', b: '\\u0000 is text here', c: '\\\u0000', d: 'ok' };
    const stored = JSON.parse(toStorableJson(value));
    expect(stored).toEqual({ a: 'x\ufffdy', b: '\\u0000 is text here', c: '\\\ufffd', d: 'ok' });
    expect(toStorableJson({ plain: 'text' })).toBe('{"plain":"text"}');
  });

  it('turns a body too deeply nested to serialize into a 400, not a failed batch', () => {
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    expect(() => toStorableJson(deep)).toThrow('body is nested too deeply');
  });
});
