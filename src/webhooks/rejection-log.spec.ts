import { jest } from '@jest/globals';
import { SignatureError } from '../common/domain-errors.js';
import { RejectionLog } from './rejection-log.js';

describe('RejectionLog', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const logger = () => {
    const lines: string[] = [];
    return { lines, service: { log: () => {}, error: () => {}, warn: (message: unknown) => void lines.push(String(message)) } };
  };

  it('logs the first rejection in full, then one report a second with the counts per source, header and reason', () => {
    const { lines, service } = logger();
    const log = new RejectionLog(service, 1000);
    log.rejected('meta', new SignatureError('X-Hub-Signature-256', 'mismatch'));
    for (let i = 0; i < 500; i++) log.rejected('meta', new SignatureError('X-Hub-Signature-256', 'missing'));
    for (let i = 0; i < 7; i++) log.rejected('waha', new SignatureError('X-Webhook-Hmac', 'malformed'));
    expect(lines).toEqual([expect.stringMatching(/^rejected a meta webhook request: X-Hub-Signature-256 does not match/)]);
    jest.advanceTimersByTime(1000);
    expect(lines.slice(1)).toEqual(['rejected 507 more webhook request(s) since the last report (meta X-Hub-Signature-256 missing: 500; waha X-Webhook-Hmac malformed: 7)']);
    log.rejected('meta', new SignatureError('X-Hub-Signature-256', 'missing')); // within a second of the report: counted
    expect(lines).toHaveLength(2);
    jest.advanceTimersByTime(1000);
    expect(lines[2]).toBe('rejected 1 more webhook request(s) since the last report (meta X-Hub-Signature-256 missing: 1)');
    jest.advanceTimersByTime(5000);
    log.rejected('wasender', new SignatureError('X-Webhook-Signature', 'mismatch')); // after a quiet period: in full again
    expect(lines[3]).toMatch(/^rejected a wasender webhook request: X-Webhook-Signature/);
    expect(lines).toHaveLength(4);
  });
});
