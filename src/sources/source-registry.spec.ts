import { InvalidPayloadError } from '../common/domain-errors.js';
import { detectSource } from './source-registry.js';

describe('detectSource', () => {
  it.each([null, undefined, 'text', 42, true, [], [{ object: 'whatsapp_business_account' }]])(
    'rejects %j as not a JSON object',
    (body) => {
      expect(() => detectSource(body)).toThrow(new InvalidPayloadError('body is not a JSON object'));
    },
  );

  it('recognises Meta by its object name or by an entry array', () => {
    expect(detectSource({ object: 'whatsapp_business_account' })).toBe('meta');
    expect(detectSource({ entry: [] })).toBe('meta');
  });

  it('recognises WASender by a string event with object or array data', () => {
    expect(detectSource({ event: 'messages.update', data: {} })).toBe('wasender');
    expect(detectSource({ event: 'chats.upsert', data: [] })).toBe('wasender');
  });

  it('recognises WAHA by its session and payload, Evolution API by its instance and data', () => {
    expect(detectSource({ event: 'message', session: 'default', payload: { id: 'x' } })).toBe('waha');
    expect(detectSource({ event: 'messages.upsert', instance: 'sales', data: { key: {} } })).toBe('evolution');
    expect(detectSource({ event: 'MESSAGES_SET', instance: 'sales', data: [] })).toBe('evolution');
    expect(detectSource({ event: 'message', session: 'default', payload: 'text' })).toBe('generic');
    expect(detectSource({ event: 'messages.upsert', instance: 7, data: {} })).toBe('wasender');
  });

  it('takes everything else as generic', () => {
    expect(detectSource({ event: 'message.received', id: 'msg_1' })).toBe('generic');
    expect(detectSource({ event: 'x', data: 'text' })).toBe('generic');
    expect(detectSource({ event: 5, data: {} })).toBe('generic');
    expect(detectSource({ entry: {} })).toBe('generic');
    expect(detectSource({})).toBe('generic');
  });
});
