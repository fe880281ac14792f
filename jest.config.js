// ESM + ts-jest: Nest 12 ships ES modules. Type-checking is done once by `nest build`
// (isolatedModules here keeps ts-jest fast).
import { availableParallelism } from 'node:os';

/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.check.json' }],
  },
  testTimeout: 30000,
  // Jest's default (cores - 1) is one worker on a 2-core machine, and most of a test file's time
  // is waiting (service processes, HTTP, timers): two workers there took the suite on the embedded
  // database from 652 s to 293 s, and on PostgreSQL from 504 s to 258 s (docs/development.md).
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // On the embedded database: one initdb for the suite, copied by each test file.
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
};
