import { deliveryOutcome, providerLabel, webhookPostSource } from './webhook-traffic.js';

describe('webhookPostSource', () => {
  it.each([
    ['POST', '/webhook', ''],
    ['POST', '/webhook/', ''],
    ['POST', '/webhook?hub.mode=x', ''],
    ['POST', '/webhook/meta', 'meta'],
    ['POST', '/webhook/generic/?x=1', 'generic'],
    ['POST', '/webhook/extra', 'extra'],
    ['GET', '/webhook', undefined],
    ['POST', '/webhooks', undefined],
    ['POST', '/webhook/meta/more', undefined],
    ['POST', '/metrics', undefined],
    [undefined, '/webhook', undefined],
    ['POST', undefined, undefined],
  ])('%s %s → %s', (method, url, expected) => {
    expect(webhookPostSource(method, url)).toBe(expected);
  });
});

describe('deliveryOutcome', () => {
  it.each([
    [200, 'ok'],
    [204, 'ok'],
    [400, 'invalid'],
    [413, 'invalid'],
    [415, 'invalid'],
    [401, 'signature_rejected'],
    [403, 'source_disabled'],
    [404, 'invalid'],
    [503, 'unavailable'],
    [500, 'error'],
    [302, 'error'],
  ])('answered %i → %s', (status, outcome) => {
    expect(deliveryOutcome(status, true)).toBe(outcome);
  });

  it('is aborted when the connection closed before the answer, whatever the status set so far', () => {
    expect(deliveryOutcome(200, false)).toBe('aborted');
  });
});

describe('providerLabel', () => {
  it('on /webhook, detects the provider the way the service does', () => {
    expect(providerLabel('', { object: 'whatsapp_business_account', entry: [] })).toBe('meta');
    expect(providerLabel('', { event: 'messages.received', data: {} })).toBe('wasender');
    expect(providerLabel('', { id: 'x' })).toBe('generic');
  });

  it('on a per-source URL, is the source the URL names, whatever the body', () => {
    expect(providerLabel('generic', { object: 'whatsapp_business_account', entry: [] })).toBe('generic');
    expect(providerLabel('meta', undefined)).toBe('meta');
    expect(providerLabel('nope', { id: 'x' })).toBe('unknown');
  });

  it('is unknown without a JSON object (body not parsed, array, scalar)', () => {
    expect(providerLabel('', undefined)).toBe('unknown');
    expect(providerLabel('', null)).toBe('unknown');
    expect(providerLabel('', [{ id: 'x' }])).toBe('unknown');
    expect(providerLabel('', 'text')).toBe('unknown');
  });
});
