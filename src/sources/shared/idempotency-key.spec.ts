import { createHash } from 'node:crypto';
import { InvalidPayloadError } from '../../common/domain-errors.js';
import { buildContentKey, buildKey, canonicalJson, MAX_KEY_LENGTH, sha256Hex } from './idempotency-key.js';

describe('buildKey', () => {
  it('joins source, tag and parts with colons', () => {
    expect(buildKey('meta', 'status', ['wamid.A', 'read', '111'])).toBe('meta:status:wamid.A:read:111');
  });

  it('keeps a key of exactly 255 characters as it is', () => {
    const id = 'x'.repeat(MAX_KEY_LENGTH - 'meta:msg:'.length);
    expect(buildKey('meta', 'msg', [id])).toBe(`meta:msg:${id}`);
  });

  it('replaces a longer key by the sha256 of the full key, still namespaced', () => {
    const id = 'x'.repeat(MAX_KEY_LENGTH);
    const full = `wasender:msg:${id}`;
    const key = buildKey('wasender', 'msg', [id]);
    expect(key).toBe(`wasender:msg:sha256:${createHash('sha256').update(full).digest('hex')}`);
    expect(key.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
    expect(buildKey('wasender', 'msg', [`${id}y`])).not.toBe(key);
  });
});

describe('buildKey with a scope', () => {
  it('puts the scope between source and tag', () => {
    expect(buildKey('waha', 'msg', ['true_1@c.us_AAA'], 'default')).toBe('waha:default:msg:true_1@c.us_AAA');
    expect(buildContentKey('waha', 'other', { a: 1 }, 's1')).toBe(`waha:s1:other:${sha256Hex('{"a":1}')}`);
  });

  it('digests a long scoped key over scope and id, so two scopes never share a digest', () => {
    const id = 'x'.repeat(MAX_KEY_LENGTH);
    const a = buildKey('evolution', 'msg', [id], 'one');
    expect(a).toBe(`evolution:msg:sha256:${sha256Hex(`evolution:one:msg:${id}`)}`);
    expect(buildKey('evolution', 'msg', [id], 'two')).not.toBe(a);
  });
});

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    const a = { b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } };
    const b = { a: { c: null, d: [3, { y: 2, z: 1 }] }, b: 1 };
    expect(canonicalJson(a)).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson(b)).toBe(canonicalJson(a));
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('leaves out undefined members like JSON does, and keeps __proto__ as data', () => {
    expect(canonicalJson({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    const withProto = JSON.parse('{"__proto__":{"x":1}}') as unknown;
    expect(canonicalJson(withProto)).toBe('{"__proto__":{"x":1}}');
  });

  it('answers InvalidPayloadError for nesting too deep to walk', () => {
    const deep: Record<string, unknown> = {};
    let current = deep;
    for (let depth = 0; depth < 100_000; depth++) {
      const next: Record<string, unknown> = {};
      current.a = next;
      current = next;
    }
    expect(() => canonicalJson(deep)).toThrow(InvalidPayloadError);
  });
});

describe('buildContentKey', () => {
  it('hashes the canonical JSON of the content', () => {
    const content = { field: 'account_update', value: { event: 'X' } };
    expect(buildContentKey('meta', 'other', content)).toBe(`meta:other:${sha256Hex(canonicalJson(content))}`);
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('buildKey with characters PostgreSQL cannot store', () => {
  it('digests the id over its UTF-16 code units, so ids differing only in such characters stay apart', () => {
    const [nul, high, low] = ['x\u0000', 'x\ud800', 'x\udc00'].map((id) => buildKey('meta', 'msg', [id]));
    expect(nul).toMatch(/^meta:msg:sha256:[0-9a-f]{64}$/);
    expect(new Set([nul, high, low]).size).toBe(3);
    expect(buildKey('meta', 'msg', ['x\u0000'])).toBe(nul);
  });
});
