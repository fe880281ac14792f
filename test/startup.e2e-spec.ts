import { spawnSync } from 'node:child_process';
import { MAIN, startServiceProcess } from './support/service-process.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/** Starts the built service with the given environment and returns how it exited. */
function start(env: Record<string, string>) {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return spawnSync(process.execPath, [MAIN], { env: { ...inherited, ...env }, encoding: 'utf8', timeout: 15_000 });
}

describe('starting with a wrong configuration', () => {
  it.each([
    [{ DATABASE_URL: 'mysql://root@127.0.0.1/db' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/postgres', PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/postgres', LOG_LEVEL: 'chatty' }, 'LOG_LEVEL'],
  ])('stops at once with a message naming the variable (%o)', (env, variable) => {
    const result = start(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toContain(variable);
  });
});

describe('starting in production', () => {
  it.each([
    [{ NODE_ENV: 'production' }, 'DATABASE_URL is required when NODE_ENV=production'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none', MIGRATE_ON_START: 'false', WEBHOOK_ALLOW_UNSIGNED: 'meta,wasender,generic' }, 'INSPECTION_API_KEY must be set'],
  ])('refuses what only development may do, in one line (%o)', (env, message) => {
    const result = start(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('the production gate on webhook sources', () => {
  const production = { NODE_ENV: 'production', DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none', MIGRATE_ON_START: 'false', INSPECTION_API_KEY: 'k'.repeat(24) };

  it('refuses to start when an enabled source has no credential, naming the source and the variable, in one line', () => {
    // The configuration of the issue: Meta and WASender secrets set, every source enabled by default.
    const result = start({ ...production, WHATSAPP_APP_SECRET: 'meta-app-secret', WASENDER_WEBHOOK_SECRET: 'wasender-secret' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('webhook source generic has no credential: set GENERIC_WEBHOOK_SECRET');
    expect(result.stderr).not.toContain('webhook source meta');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  describe('when it may start', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase();
    });
    afterAll(async () => {
      await db?.drop();
    });

    it('starts with WEBHOOK_ALLOW_UNSIGNED naming the unsigned source, and warns about it', async () => {
      const service = await startServiceProcess({ ...production, DATABASE_URL: db.url, MIGRATE_ON_START: 'true', GENERIC_WEBHOOK_SECRET: '', WEBHOOK_ALLOW_UNSIGNED: 'generic' });
      try {
        expect(service.output()).toMatch(/"level":40,.*webhook source generic takes unauthenticated webhook requests \(GENERIC_WEBHOOK_SECRET is not set\)/);
        expect(service.output()).not.toContain('webhook source meta takes');
      } finally {
        expect((await service.stop()).code).toBe(0);
      }
    });

    it('starts with only the sources it uses (WEBHOOK_PROVIDERS=meta) and only their secret, without a warning', async () => {
      const service = await startServiceProcess({
        ...production, DATABASE_URL: db.url, WEBHOOK_PROVIDERS: 'meta', WASENDER_WEBHOOK_SECRET: '', GENERIC_WEBHOOK_SECRET: '',
      });
      try {
        expect(service.output()).not.toContain('unauthenticated webhook requests');
      } finally {
        expect((await service.stop()).code).toBe(0);
      }
    });

    it('in development, starts with unsigned sources and warns once for each', async () => {
      const service = await startServiceProcess({ DATABASE_URL: db.url, WHATSAPP_APP_SECRET: '', WASENDER_WEBHOOK_SECRET: '', GENERIC_WEBHOOK_SECRET: '' });
      try {
        for (const source of ['meta', 'wasender', 'generic']) {
          expect(service.output().split(`webhook source ${source} takes unauthenticated webhook requests`)).toHaveLength(2);
        }
      } finally {
        expect((await service.stop()).code).toBe(0);
      }
    });
  });
});
