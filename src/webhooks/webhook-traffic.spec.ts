import { webhookRequestOutcome, sourceLabel, webhookRoute } from './webhook-traffic.js';

describe('webhookRoute', () => {
  it.each([
    ['POST', '/webhook', '', ''],
    ['POST', '/webhook/', '', ''],
    ['POST', '/webhook?hub.mode=x', '', ''],
    ['POST', '/webhook/meta', 'meta', ''],
    ['POST', '/webhook/generic/?x=1', 'generic', ''],
    ['POST', '/webhook/extra', 'extra', ''],
    ['POST', '/webhook/evolution/messages-upsert', 'evolution', 'messages-upsert'],
    ['POST', '/webhook/evolution/MESSAGES_UPSERT/?x=1', 'evolution', 'MESSAGES_UPSERT'],
  ])('%s %s → source %j, suffix %j', (method, url, source, suffix) => {
    expect(webhookRoute(method, url)).toEqual({ source, suffix });
  });

  it.each([
    ['GET', '/webhook'],
    ['POST', '/webhooks'],
    ['POST', '/webhook/evolution/a/b'],
    ['POST', '/metrics'],
    [undefined, '/webhook'],
    ['POST', undefined],
  ])('%s %s is not a webhook request', (method, url) => {
    expect(webhookRoute(method, url)).toBeUndefined();
  });
});

describe('webhookRequestOutcome', () => {
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
    expect(webhookRequestOutcome(status, true)).toBe(outcome);
  });

  it('is aborted when the connection closed before the answer, whatever the status set so far', () => {
    expect(webhookRequestOutcome(200, false)).toBe('aborted');
  });
});

describe('sourceLabel', () => {
  it('on /webhook, detects the provider the way the service does', () => {
    expect(sourceLabel('', { object: 'whatsapp_business_account', entry: [] })).toBe('meta');
    expect(sourceLabel('', { event: 'messages.received', data: {} })).toBe('wasender');
    expect(sourceLabel('', { id: 'x' })).toBe('generic');
  });

  it('on a per-source URL, is the source the URL names, whatever the body', () => {
    expect(sourceLabel('generic', { object: 'whatsapp_business_account', entry: [] })).toBe('generic');
    expect(sourceLabel('meta', undefined)).toBe('meta');
    expect(sourceLabel('nope', { id: 'x' })).toBe('unknown');
  });

  it('is unknown without a JSON object (body not parsed, array, scalar)', () => {
    expect(sourceLabel('', undefined)).toBe('unknown');
    expect(sourceLabel('', null)).toBe('unknown');
    expect(sourceLabel('', [{ id: 'x' }])).toBe('unknown');
    expect(sourceLabel('', 'text')).toBe('unknown');
  });
});
