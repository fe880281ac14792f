import { InvalidQueryError } from '../common/domain-errors.js';
import { checkIdempotencyKey, requestHash, toBulkReplayRequest } from './bulk-replay-request.js';

describe('the bulk replay request', () => {
  it('hashes the same filters alike however the instants are written, and other filters apart', () => {
    const hash = (params: Parameters<typeof toBulkReplayRequest>[0]) => requestHash(toBulkReplayRequest(params));
    const base = hash({ tenant: 't1', since: '2026-11-29T02:00:00+02:00' });
    expect(hash({ since: '2026-11-29T00:00:00.000Z', tenant: 't1' })).toBe(base);
    expect(hash({ tenant: 't1', since: '2026-11-29T00:00:00Z', dryRun: true })).toBe(base);
    for (const other of [{ tenant: 't2' }, { tenant: 't1', since: '2026-11-29T00:00:01Z' }, { tenant: 't1', since: '2026-11-29T00:00:00Z', fromStart: true }]) {
      expect(hash(other)).not.toBe(base);
    }
    expect(hash({ destination: 'crm' })).not.toBe(hash({ destination: 'bot' }));
  });

  it('replays dead and failed rows, processed ones only from the start, and never waiting or running ones', () => {
    expect(toBulkReplayRequest({}).statuses).toEqual(['dead', 'failed']);
    expect(toBulkReplayRequest({ fromStart: true }).statuses).toEqual(['dead', 'failed', 'processed']);
    expect(toBulkReplayRequest({ status: 'dead' }).statuses).toEqual(['dead']);
    expect(() => toBulkReplayRequest({ status: 'processed' })).toThrow(/status=processed needs fromStart=true/);
    expect(() => toBulkReplayRequest({ status: 'processing', fromStart: true })).toThrow(InvalidQueryError);
  });

  it('takes 1 to 255 printable ASCII characters as an Idempotency-Key', () => {
    expect(() => checkIdempotencyKey('replay 2026-11-29 #1')).not.toThrow();
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'é']) expect(() => checkIdempotencyKey(bad)).toThrow(/Idempotency-Key/);
  });
});
