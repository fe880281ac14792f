import { checkEvolutionApiKey } from './evolution-credential.js';

const KEY = 'B6D711FCDE4D4FD5936544120E713976';
const NEXT = '0F1E2D3C4B5A69788796A5B4C3D2E1F0';

describe('checkEvolutionApiKey', () => {
  it('accepts the body’s apikey when it is one of the keys', () => {
    expect(checkEvolutionApiKey(KEY, undefined, [KEY])).toBeNull();
  });

  it('refuses a forged apikey or header token', () => {
    expect(checkEvolutionApiKey('B6D711FCDE4D4FD5936544120E713977', undefined, [KEY])).toBe('mismatch');
    expect(checkEvolutionApiKey(undefined, 'Bearer forged', [KEY])).toBe('mismatch');
    expect(checkEvolutionApiKey('Apikey not found', undefined, [KEY])).toBe('mismatch');
    expect(checkEvolutionApiKey(KEY, undefined, [])).toBe('mismatch');
  });

  it('reports a webhook request without either as missing; Evolution sends apikey null when it does not expose keys', () => {
    expect(checkEvolutionApiKey(undefined, undefined, [KEY])).toBe('missing');
    expect(checkEvolutionApiKey(null, '', [KEY])).toBe('missing');
    expect(checkEvolutionApiKey('', 'Bearer ', [KEY])).toBe('missing');
  });

  it('reports a non-string apikey as malformed', () => {
    expect(checkEvolutionApiKey(12345, KEY, [KEY])).toBe('malformed');
    expect(checkEvolutionApiKey({ key: KEY }, undefined, [KEY])).toBe('malformed');
  });

  it('accepts a configured header, as is or as a Bearer token', () => {
    expect(checkEvolutionApiKey(undefined, KEY, [KEY])).toBeNull();
    expect(checkEvolutionApiKey(null, `Bearer ${KEY}`, [KEY])).toBeNull();
    expect(checkEvolutionApiKey(null, `bearer   ${KEY}`, [KEY])).toBeNull();
  });

  it('accepts either credential when the other is stale', () => {
    expect(checkEvolutionApiKey('old-instance-token', `Bearer ${KEY}`, [KEY])).toBeNull();
    expect(checkEvolutionApiKey(KEY, 'Bearer stale', [KEY])).toBeNull();
  });

  it('accepts every configured key during a rotation, and none once removed', () => {
    expect(checkEvolutionApiKey(KEY, undefined, [KEY, NEXT])).toBeNull();
    expect(checkEvolutionApiKey(NEXT, undefined, [KEY, NEXT])).toBeNull();
    expect(checkEvolutionApiKey(KEY, undefined, [NEXT])).toBe('mismatch');
  });
});
