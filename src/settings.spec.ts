import { validateConfig } from '../test/support/settings.js';

const base = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/db' };

describe('validateConfig', () => {
  it('applies the defaults', () => {
    expect(validateConfig(base)).toMatchObject({
      PORT: 3000, LOG_LEVEL: 'info', MIGRATE_ON_START: true, DB_POOL_SIZE: 10, WEBHOOK_BODY_LIMIT: '3mb', WEBHOOK_MAX_EVENTS: 100_000,
      HTTP_REQUEST_TIMEOUT_MS: 25_000, HTTP_HEADERS_TIMEOUT_MS: 10_000,
    });
  });

  it('refuses a headers timeout above the request timeout (the headers are part of the request)', () => {
    expect(() => validateConfig({ ...base, HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS must not be above HTTP_REQUEST_TIMEOUT_MS/);
    expect(() => validateConfig({ ...base, HTTP_REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS must be an integer/);
  });

  it('converts numbers and booleans, and treats empty secrets as unset', () => {
    const config = validateConfig({ ...base, PORT: '8080', MIGRATE_ON_START: 'false', WHATSAPP_APP_SECRET: '' });
    expect(config).toMatchObject({ PORT: 8080, MIGRATE_ON_START: false });
    expect(config.WHATSAPP_APP_SECRET).toEqual([]);
  });

  it('listens on every interface unless HOST names an address or a host name', () => {
    expect(validateConfig(base).HOST).toBeUndefined();
    expect(validateConfig({ ...base, HOST: '' }).HOST).toBeUndefined();
    for (const host of ['127.0.0.1', '0.0.0.0', '::1', '::', 'fd00::2', 'localhost', 'app.internal']) {
      expect(validateConfig({ ...base, HOST: host }).HOST).toBe(host);
    }
  });

  it.each(['127.0.0.1:3000', '[::1]', 'http://localhost', '300.1.1.1', ' 127.0.0.1', 'two hosts'])('rejects HOST=%j naming the variable', (host) => {
    expect(() => validateConfig({ ...base, HOST: host })).toThrow(
      'HOST must be an IP address (e.g. 127.0.0.1, ::1, 0.0.0.0) or a host name, without a port',
    );
  });

  it('reads every secret as a comma list (rotation) and the sources as names', () => {
    const whsec = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const config = validateConfig({
      ...base, WHATSAPP_APP_SECRET: 'new-app-secret, old-app-secret', GENERIC_WEBHOOK_SECRET: whsec, INSPECTION_API_KEY: 'k'.repeat(16) + ',' + 'j'.repeat(16),
      WEBHOOK_PROVIDERS: 'meta, generic', WEBHOOK_ALLOW_UNSIGNED: 'generic', FORWARD_SECRET: `plain-secret,${whsec}`,
    });
    expect(config).toMatchObject({
      WHATSAPP_APP_SECRET: ['new-app-secret', 'old-app-secret'], GENERIC_WEBHOOK_SECRET: [whsec], WEBHOOK_PROVIDERS: ['meta', 'generic'],
      WEBHOOK_ALLOW_UNSIGNED: ['generic'], FORWARD_SECRET: ['plain-secret', whsec], WEBHOOK_TOLERANCE_SECONDS: 300,
    });
    expect(config.INSPECTION_API_KEY).toHaveLength(2);
    expect(validateConfig(base).WEBHOOK_PROVIDERS).toEqual(['meta', 'wasender', 'generic']);
  });

  it('takes PUBLIC_BASE_URL with a path prefix, and the new sources only when named', () => {
    expect(validateConfig({ ...base, PUBLIC_BASE_URL: 'https://hooks.example.com/wa' }).PUBLIC_BASE_URL).toBe('https://hooks.example.com/wa');
    expect(validateConfig({ ...base, WEBHOOK_PROVIDERS: 'twilio,360dialog,waha,evolution' }).WEBHOOK_PROVIDERS).toEqual(['twilio', '360dialog', 'waha', 'evolution']);
  });

  it('reads SILENCE_ALERT_AFTER_SECONDS: an hour by default, 0 turns the silence alert off, at most 7 days', () => {
    expect(validateConfig(base).SILENCE_ALERT_AFTER_SECONDS).toBe(3600);
    expect(validateConfig({ ...base, SILENCE_ALERT_AFTER_SECONDS: '0' }).SILENCE_ALERT_AFTER_SECONDS).toBe(0);
    expect(validateConfig({ ...base, SILENCE_ALERT_AFTER_SECONDS: '604800' }).SILENCE_ALERT_AFTER_SECONDS).toBe(604_800);
    for (const value of ['-1', '604801', '1h', '1.5']) {
      expect(() => validateConfig({ ...base, SILENCE_ALERT_AFTER_SECONDS: value })).toThrow(/SILENCE_ALERT_AFTER_SECONDS/);
    }
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
    [{ ...base, WEBHOOK_MAX_EVENTS: '999' }, /WEBHOOK_MAX_EVENTS must be at least 1000/],
    [{ ...base, WEBHOOK_MAX_EVENTS: 'many' }, /WEBHOOK_MAX_EVENTS must be an integer/],
    [{ ...base, WHATSAPP_APP_SECRET: 'long-enough-secret,short' }, /WHATSAPP_APP_SECRET/],
    [{ ...base, WEBHOOK_PROVIDERS: 'meta,twitter' }, /WEBHOOK_PROVIDERS/],
    [{ ...base, WEBHOOK_PROVIDERS: ' , ' }, /WEBHOOK_PROVIDERS/],
    [{ ...base, WEBHOOK_ALLOW_UNSIGNED: 'all' }, /WEBHOOK_ALLOW_UNSIGNED/],
    [{ ...base, GENERIC_WEBHOOK_SECRET: 'not-a-whsec-secret' }, /GENERIC_WEBHOOK_SECRET/],
    [{ ...base, GENERIC_WEBHOOK_SECRET: 'whsec_AAAA' }, /GENERIC_WEBHOOK_SECRET must hold at least 16 bytes/],
    [{ ...base, FORWARD_SECRET: 'whsec_not base64!' }, /FORWARD_SECRET/],
    [{ ...base, WEBHOOK_TOLERANCE_SECONDS: '0' }, /WEBHOOK_TOLERANCE_SECONDS/],
    [{ ...base, PUBLIC_BASE_URL: 'hooks.example.com' }, /PUBLIC_BASE_URL/],
    [{ ...base, PUBLIC_BASE_URL: 'https://hooks.example.com/?x=1' }, /PUBLIC_BASE_URL/],
    [{ ...base, PUBLIC_BASE_URL: 'ftp://hooks.example.com' }, /PUBLIC_BASE_URL/],
    [{ ...base, TWILIO_AUTH_TOKEN: 'short' }, /TWILIO_AUTH_TOKEN/],
    [{ ...base, DIALOG360_HEADER_NAME: 'X Partner' }, /DIALOG360_HEADER_NAME/],
    [{ ...base, EVOLUTION_API_KEY: 'short' }, /EVOLUTION_API_KEY/],
    [{ ...base, WASENDER_TENANT: 'x'.repeat(129) }, /WASENDER_TENANT/],
    [{ ...base, CONSOLE_ENABLED: 'maybe' }, /CONSOLE_ENABLED must be true or false/],
  ])('rejects %o naming the variable', (env, name) => {
    expect(() => validateConfig(env)).toThrow(name);
  });

  it('serves the operator console unless CONSOLE_ENABLED=false', () => {
    expect(validateConfig(base).CONSOLE_ENABLED).toBe(true);
    expect(validateConfig({ ...base, CONSOLE_ENABLED: 'false' }).CONSOLE_ENABLED).toBe(false);
    expect(validateConfig({ ...base, CONSOLE_ENABLED: '1' }).CONSOLE_ENABLED).toBe(true);
  });
});
