import type { NormalizedEvent } from '../../sources/shared/normalized-event.js';
import { conversationOf } from './destinations.step.js';

const event = (tenant: string | null, sender: string | null): NormalizedEvent => ({
  key: 'k', source: 'evolution', kind: 'message', type: 'text', sender, userId: null, tenant, providerTimestamp: null, fromMe: false, authenticated: true, raw: {},
});

describe('conversationOf', () => {
  it('includes the tenant: the same user in two tenants is two conversations', () => {
    expect(conversationOf(event('sales', '5511987654321'))).toBe('sales|5511987654321');
    expect(conversationOf(event('support', '5511987654321'))).not.toBe(conversationOf(event('sales', '5511987654321')));
    expect(conversationOf(event(null, '5511987654321'))).toBe('|5511987654321');
  });

  it('cannot be forged across tenants with a separator in the tenant', () => {
    expect(conversationOf(event('a|b', 'c'))).not.toBe(conversationOf(event('a', 'b|c')));
    expect(conversationOf(event('a\\', '|c'))).not.toBe(conversationOf(event('a\\|', 'c')));
  });

  it('is none without another party', () => {
    expect(conversationOf(event('sales', null))).toBeNull();
  });
});
