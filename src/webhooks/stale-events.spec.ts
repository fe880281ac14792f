import { createEvent } from '../sources/shared/normalized-event.js';
import { isStale } from './stale-events.js';

const now = Date.parse('2026-12-01T12:00:00Z');
const at = (iso: string | null) =>
  createEvent({ key: 'k', source: 'meta', kind: 'message', type: 'text', sender: null, fromMe: false, raw: {}, providerTimestamp: iso === null ? null : new Date(iso) });

describe('isStale', () => {
  it('is stale only when the source’s time is older than the retention window', () => {
    expect(isStale(at('2026-11-22T12:00:00Z'), 8, now)).toBe(true); // 9 days
    expect(isStale(at('2026-11-23T12:00:01Z'), 8, now)).toBe(false); // just under 8 days
    expect(isStale(at('2026-11-25T12:00:00Z'), 8, now)).toBe(false); // 6 days
    expect(isStale(at('2026-11-25T12:00:00Z'), 5, now)).toBe(true);
  });

  it('never judges an event that carries no source’s time', () => {
    expect(isStale(at(null), 8, now)).toBe(false);
  });
});
