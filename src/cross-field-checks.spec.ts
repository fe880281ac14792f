import { validateConfig } from '../test/support/settings.js';
import { loadSettings } from './config/load-settings.js';
import { DatabaseSettings } from './prisma/database.settings.js';
import { StepsSettings } from './outbound/steps.settings.js';

const base = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/db' };
const whsec = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;

describe('the checks that span settings, each in the class whose fields it relates', () => {
  it.each([
    [{ AUTO_REPLY_TEXT: 'hi' }, 'AUTO_REPLY_TEXT needs WHATSAPP_ACCESS_TOKEN'],
    [{ FORWARD_SECRET: 'whsec_not base64!' }, 'FORWARD_SECRET: a whsec_ secret must be whsec_ followed by base64'],
    [{ FORWARD_SECRET: whsec(8) }, 'FORWARD_SECRET: a whsec_ secret must hold at least 16 bytes'],
    [{ FORWARD_TIMEOUT_MS: '60000' }, 'FORWARD_TIMEOUT_MS must be below ATTEMPT_TIMEOUT_SECONDS (60000 ms)'],
    [{ RETRY_BASE_MS: '5000', RETRY_MAX_MS: '4000' }, 'RETRY_MAX_MS must not be below RETRY_BASE_MS'],
    [{ FORWARD_URL: 'http://a.example', DESTINATIONS_FILE: 'd.yaml' }, 'FORWARD_URL and DESTINATIONS_FILE: set one (put FORWARD_URL into the file as a destination)'],
    [{ RETENTION_DAYS: '14', DEAD_RETENTION_DAYS: '10' }, 'DEAD_RETENTION_DAYS must not be below RETENTION_DAYS (14)'],
    [{ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' }, 'HTTP_HEADERS_TIMEOUT_MS must not be above HTTP_REQUEST_TIMEOUT_MS'],
  ])('refuses %o', (env, message) => {
    expect(() => validateConfig({ ...base, ...env })).toThrow(message);
  });

  it('accepts what they allow', () => {
    expect(() => validateConfig({ ...base, AUTO_REPLY_TEXT: 'hi', WHATSAPP_ACCESS_TOKEN: 't', FORWARD_SECRET: whsec(32), FORWARD_TIMEOUT_MS: '59999', RETRY_BASE_MS: '4000', RETRY_MAX_MS: '4000' })).not.toThrow();
  });

  it('lists every problem of the fields first, naming each variable, before any check runs', () => {
    const message = (() => {
      try {
        validateConfig({ ...base, PORT: 'x', LOG_LEVEL: 'loud', AUTO_REPLY_TEXT: 'hi' });
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toMatch(/^Invalid configuration:\n {2}- /);
    expect(message).toContain('\n  - PORT must be an integer');
    expect(message).toContain('\n  - LOG_LEVEL must be one of');
    expect(message).not.toContain('AUTO_REPLY_TEXT');
  });

  it('gives a check the settings it depends on, which must be registered', () => {
    expect(() => loadSettings(base, [DatabaseSettings, StepsSettings])).toThrow('WorkerSettings is not registered');
  });

  it('holds only its own variables', () => {
    const database = loadSettings({ ...base, PORT: '1', PATH: '/bin' }, [DatabaseSettings]).get(DatabaseSettings);
    expect(Object.keys(database)).not.toContain('PATH');
    expect(Object.keys(database)).not.toContain('PORT');
  });
});
