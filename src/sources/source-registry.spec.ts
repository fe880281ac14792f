import { InvalidPayloadError } from '../common/domain-errors.js';
import { credentialHeaders, detectSource, SOURCE_NAMES, sourceDescriptor } from './source-registry.js';

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

describe('the source registry', () => {
  it('lists the names in their documented order (OpenAPI enums, error messages, metric labels)', () => {
    expect(SOURCE_NAMES).toEqual(['meta', 'wasender', 'generic', 'twilio', '360dialog', 'waha', 'evolution']);
  });

  it('collects every source’s credential headers for log redaction', () => {
    expect(credentialHeaders().sort()).toEqual(['apikey', 'webhook-signature', 'x-360dialog-signature', 'x-hub-signature-256', 'x-twilio-signature', 'x-webhook-hmac', 'x-webhook-signature']);
  });

  it('keeps the gateways’ message keys and every gateway’s receipts per tenant', () => {
    expect(SOURCE_NAMES.filter((name) => sourceDescriptor(name).tenancy.keyedByTenant)).toEqual(['waha', 'evolution']);
    expect(SOURCE_NAMES.filter((name) => sourceDescriptor(name).tenancy.receiptsByTenant)).toEqual(['wasender', 'waha', 'evolution']);
  });

  it('knows no other source', () => {
    expect(() => sourceDescriptor('nope')).toThrow('no source nope is registered');
  });
});
