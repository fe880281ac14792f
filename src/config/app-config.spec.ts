import { validateConfig } from './app-config.js';

const base = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/db' };

describe('validateConfig', () => {
  it('applies the defaults', () => {
    expect(validateConfig(base)).toMatchObject({
      PORT: 3000, LOG_LEVEL: 'info', MIGRATE_ON_START: true, DB_POOL_SIZE: 10, WEBHOOK_BODY_LIMIT: '4mb',
    });
  });

  it('converts numbers and booleans, and treats empty secrets as unset', () => {
    const config = validateConfig({ ...base, PORT: '8080', MIGRATE_ON_START: 'false', WHATSAPP_APP_SECRET: '' });
    expect(config).toMatchObject({ PORT: 8080, MIGRATE_ON_START: false });
    expect(config.WHATSAPP_APP_SECRET).toBeUndefined();
  });

  it.each([
    [{}, /DATABASE_URL/],
    [{ ...base, DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ ...base, PORT: 'eighty' }, /PORT/],
    [{ ...base, PORT: '70000' }, /PORT/],
    [{ ...base, LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ ...base, MIGRATE_ON_START: 'maybe' }, /MIGRATE_ON_START/],
    [{ ...base, WHATSAPP_APP_SECRET: 'short' }, /WHATSAPP_APP_SECRET/],
    [{ ...base, WEBHOOK_BODY_LIMIT: 'lots' }, /WEBHOOK_BODY_LIMIT/],
  ])('rejects %o naming the variable', (env, name) => {
    expect(() => validateConfig(env)).toThrow(name);
  });
});
