import fc from 'fast-check';
import { MAX_KEY_LENGTH } from '../shared/idempotency-key.js';
import { MAX_SENDER_LENGTH, MAX_TYPE_LENGTH } from '../shared/normalized-event.js';
import { parseWahaBody, readWahaStatus } from './waha.parser.js';

/** Like parsers.property.spec.ts, for the fields the WAHA parser reads. */
describe('parseWahaBody on arbitrary JSON', () => {
  it('answers events that fit the columns whatever the envelope and payload hold', () => {
    const names = ['id', 'ack', 'ackName', 'from', 'to', 'participant', 'fromMe', 'timestamp', 'type', '_data', 'media', 'body', '__proto__'];
    const value = fc.letrec((tie) => ({
      any: fc.oneof({ depthSize: 'small' }, fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), tie('object')),
      object: fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string()), tie('any'), { maxKeys: 5 }),
    })).any;
    const event = fc.constantFrom('message', 'message.any', 'message.ack', 'message.ack.group', 'session.status', 'x');
    fc.assert(
      fc.property(event, fc.string({ minLength: 1 }), value, value, value, (name, session, payload, id, me) => {
        for (const parsed of parseWahaBody({ event: name, session: `s${session}`, payload, id, me, timestamp: id })) {
          expect(parsed.key.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
          expect(parsed.type.length).toBeLessThanOrEqual(MAX_TYPE_LENGTH);
          expect(Array.from(parsed.sender ?? '').length).toBeLessThanOrEqual(MAX_SENDER_LENGTH);
          expect(parsed.key).toBe(parseWahaBody({ event: name, session: `s${session}`, payload, id, me, timestamp: id })[0]?.key);
          readWahaStatus(parsed);
        }
      }),
    );
  });
});
