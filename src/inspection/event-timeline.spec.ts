import { buildTimeline, type TimelineSources } from './event-timeline.js';

const base: TimelineSources = {
  receivedAt: new Date('2026-12-01T10:00:00Z'), duplicateCount: 0, lastDuplicateAt: null, status: 'received', processedAt: null,
  steps: [], destinations: [], history: [],
};
const failure = { kind: 'delivery', step: null, destination: 'crm', attempt: 3, error: 'destination crm answered 503' };

describe('buildTimeline', () => {
  it('puts a dead entry right after the failed attempt that was the last', () => {
    const timeline = buildTimeline({ ...base, status: 'processed', history: [{ ...failure, at: '2026-12-01T10:00:05Z', dead: true }] });
    expect(timeline.map((e) => e.kind)).toEqual(['received', 'delivery-failed', 'dead']);
    expect(timeline[2]).toEqual({ at: '2026-12-01T10:00:05.000Z', kind: 'dead', destination: 'crm', attempt: 3 });
  });

  it('orders by time, keeping the order of entries written at the same instant', () => {
    const at = '2026-12-01T10:00:01Z';
    const timeline = buildTimeline({
      ...base, status: 'processed', processedAt: new Date(at), duplicateCount: 2, lastDuplicateAt: new Date('2026-12-01T10:00:00.500Z'),
      steps: [{ step: 'forward', attempt: 1, completed_at: at }],
      history: [{ at: '2026-12-01T10:00:00.200Z', kind: 'replay-start', step: null, destination: null, attempt: null, dead: false, error: null }],
    });
    expect(timeline.map((e) => e.kind)).toEqual(['received', 'replayed', 'duplicate', 'step', 'processed']);
    expect(timeline[1]).toMatchObject({ fromStart: true });
    expect(timeline[2]).toMatchObject({ count: 2 });
  });

  it('shows processed only when the event is processed now (a replay reopens it)', () => {
    expect(buildTimeline({ ...base, status: 'received', processedAt: new Date() }).map((e) => e.kind)).toEqual(['received']);
  });
});
