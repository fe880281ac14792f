import { spawnSync } from 'node:child_process';
import { MAIN } from './support/service-process.js';

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
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none', MIGRATE_ON_START: 'false' }, 'INSPECTION_API_KEY must be set'],
  ])('refuses what only development may do, in one line (%o)', (env, message) => {
    const result = start(env);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
