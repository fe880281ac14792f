import { deliveryOutcome, isWebhookPost, providerLabel } from './webhook-traffic.js';

describe('isWebhookPost', () => {
  it.each([
    ['POST', '/webhook', true],
    ['POST', '/webhook/', true],
    ['POST', '/webhook?hub.mode=x', true],
    ['GET', '/webhook', false],
    ['POST', '/webhooks', false],
    ['POST', '/webhook/extra', false],
    ['POST', '/metrics', false],
    [undefined, '/webhook', false],
    ['POST', undefined, false],
  ])('%s %s → %s', (method, url, expected) => {
    expect(isWebhookPost(method, url)).toBe(expected);
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
  it('detects the provider the way the service does', () => {
    expect(providerLabel({ object: 'whatsapp_business_account', entry: [] })).toBe('meta');
    expect(providerLabel({ event: 'messages.received', data: {} })).toBe('wasender');
    expect(providerLabel({ id: 'x' })).toBe('generic');
  });

  it('is unknown without a JSON object (body not parsed, array, scalar)', () => {
    expect(providerLabel(undefined)).toBe('unknown');
    expect(providerLabel(null)).toBe('unknown');
    expect(providerLabel([{ id: 'x' }])).toBe('unknown');
    expect(providerLabel('text')).toBe('unknown');
  });
});
