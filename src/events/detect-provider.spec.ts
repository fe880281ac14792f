import { InvalidPayloadError } from '../common/domain-errors.js';
import { detectProvider } from './detect-provider.js';

describe('detectProvider', () => {
  it.each([null, undefined, 'text', 42, true, [], [{ object: 'whatsapp_business_account' }]])(
    'rejects %j as not a JSON object',
    (body) => {
      expect(() => detectProvider(body)).toThrow(new InvalidPayloadError('body is not a JSON object'));
    },
  );

  it('recognises Meta by its object name or by an entry array', () => {
    expect(detectProvider({ object: 'whatsapp_business_account' })).toBe('meta');
    expect(detectProvider({ entry: [] })).toBe('meta');
  });

  it('recognises WASender by a string event with object or array data', () => {
    expect(detectProvider({ event: 'messages.update', data: {} })).toBe('wasender');
    expect(detectProvider({ event: 'chats.upsert', data: [] })).toBe('wasender');
  });

  it('recognises WAHA by its session and payload, Evolution API by its instance and data', () => {
    expect(detectProvider({ event: 'message', session: 'default', payload: { id: 'x' } })).toBe('waha');
    expect(detectProvider({ event: 'messages.upsert', instance: 'sales', data: { key: {} } })).toBe('evolution');
    expect(detectProvider({ event: 'MESSAGES_SET', instance: 'sales', data: [] })).toBe('evolution');
    expect(detectProvider({ event: 'message', session: 'default', payload: 'text' })).toBe('generic');
    expect(detectProvider({ event: 'messages.upsert', instance: 7, data: {} })).toBe('wasender');
  });

  it('takes everything else as generic', () => {
    expect(detectProvider({ event: 'message.received', id: 'msg_1' })).toBe('generic');
    expect(detectProvider({ event: 'x', data: 'text' })).toBe('generic');
    expect(detectProvider({ event: 5, data: {} })).toBe('generic');
    expect(detectProvider({ entry: {} })).toBe('generic');
    expect(detectProvider({})).toBe('generic');
  });
});
