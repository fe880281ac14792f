import { hasUnstorable, storableText, toStorableJson } from './storable-json.js';

describe('storable text and JSON (PostgreSQL refuses NUL and lone surrogates)', () => {
  it('replaces NUL and lone surrogates in text, keeps valid pairs', () => {
    expect(storableText('a\u0000b\ud800c\udc00d😀')).toBe('a\ufffdb\ufffdc\ufffdd😀');
    expect(storableText('plain')).toBe('plain');
    expect([hasUnstorable('😀'), hasUnstorable('x\ud83d'), hasUnstorable('\u0000')]).toEqual([false, true, true]);
  });

  it('writes JSON whose strings hold U+FFFD where they held NUL or a lone surrogate, and leaves escaped backslashes alone', () => {
    const json = toStorableJson({ a: 'x\u0000y', b: '\ud800', c: 'ok 😀', d: '\\u0000 and \\ud800 as text' });
    expect(JSON.parse(json)).toEqual({ a: 'x\ufffdy', b: '\ufffd', c: 'ok 😀', d: '\\u0000 and \\ud800 as text' });
  });
});
