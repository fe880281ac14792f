import { decodeCursor, encodeCursor } from './page-cursor.js';

describe('page cursors', () => {
  it('round-trip a position, microseconds and key included', () => {
    const cursor = { receivedAtMicros: '1795952462732123', id: 'meta:status:wamid.X:read:+49 151/ü' };
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual(cursor);
  });

  it.each(['', 'not-base64!', Buffer.from('{"a":1}').toString('base64url'), Buffer.from('["12x","k"]').toString('base64url'),
    Buffer.from(JSON.stringify(['1', 'k'.repeat(256)])).toString('base64url')])('reject %s', (text) => {
    expect(decodeCursor(text)).toBeNull();
  });
});
