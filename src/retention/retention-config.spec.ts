import { validateConfig } from '../../test/support/settings.js';

const base = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/db' };

describe('the RETENTION_* settings', () => {
  it('default to a purge every hour of what is older than 8 days, 1,000 rows at a time', () => {
    expect(validateConfig(base)).toMatchObject({
      RETENTION_ENABLED: true, RETENTION_DAYS: 8, DEAD_RETENTION_DAYS: 30, RETENTION_INTERVAL_MINUTES: 60, RETENTION_BATCH_SIZE: 1000,
    });
  });

  it('are read from strings', () => {
    expect(validateConfig({ ...base, RETENTION_ENABLED: 'false', RETENTION_DAYS: '30', RETENTION_INTERVAL_MINUTES: '5', RETENTION_BATCH_SIZE: '10000' }))
      .toMatchObject({ RETENTION_ENABLED: false, RETENTION_DAYS: 30, RETENTION_INTERVAL_MINUTES: 5, RETENTION_BATCH_SIZE: 10_000 });
  });

  it('refuse fewer than 8 days, explaining Meta’s 7-day retry window', () => {
    for (const days of ['7', '1', '0', '-3']) {
      expect(() => validateConfig({ ...base, RETENTION_DAYS: days })).toThrow(
        'RETENTION_DAYS must be at least 8: Meta retries a webhook for up to 7 days, and a key purged sooner lets a late retry be processed twice',
      );
    }
  });

  it('keep dead events DEAD_RETENTION_DAYS, by default 30 days or RETENTION_DAYS when that is longer', () => {
    expect(validateConfig({ ...base, DEAD_RETENTION_DAYS: '90' }).DEAD_RETENTION_DAYS).toBe(90);
    expect(validateConfig({ ...base, DEAD_RETENTION_DAYS: '8' }).DEAD_RETENTION_DAYS).toBe(8);
    expect(validateConfig({ ...base, DEAD_RETENTION_DAYS: '' }).DEAD_RETENTION_DAYS).toBe(30);
    expect(validateConfig({ ...base, RETENTION_DAYS: '60' }).DEAD_RETENTION_DAYS).toBe(60);
    expect(validateConfig({ ...base, RETENTION_DAYS: '60', DEAD_RETENTION_DAYS: '60' }).DEAD_RETENTION_DAYS).toBe(60);
  });

  it('refuse a DEAD_RETENTION_DAYS below RETENTION_DAYS or below 8', () => {
    expect(() => validateConfig({ ...base, RETENTION_DAYS: '14', DEAD_RETENTION_DAYS: '10' })).toThrow(
      'DEAD_RETENTION_DAYS must not be below RETENTION_DAYS (14)',
    );
    expect(() => validateConfig({ ...base, DEAD_RETENTION_DAYS: '7' })).toThrow("DEAD_RETENTION_DAYS must be at least 8, RETENTION_DAYS' minimum");
  });

  it.each([
    ['DEAD_RETENTION_DAYS', 'thirty'],
    ['DEAD_RETENTION_DAYS', '36501'],
    ['RETENTION_DAYS', 'eight'],
    ['RETENTION_DAYS', '8.5'],
    ['RETENTION_ENABLED', 'sometimes'],
    ['RETENTION_INTERVAL_MINUTES', '0'],
    ['RETENTION_INTERVAL_MINUTES', '1441'],
    ['RETENTION_BATCH_SIZE', '0'],
    ['RETENTION_BATCH_SIZE', '10001'],
  ])('refuse %s=%s naming the variable', (name, value) => {
    expect(() => validateConfig({ ...base, [name]: value })).toThrow(name);
  });
});
