import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { createApp } from '../../src/app.setup.js';
import { PrismaService } from '../../src/prisma/prisma.service.js';
import { signedForEverySource, TEST_SECRETS } from './signing.js';
import { createTestDatabase, EMBEDDED, type TestDatabase } from './test-database.js';

/** On the embedded database nobody hears a NOTIFY from another connection: workers poll instead. */
const EMBEDDED_SETTINGS: Record<string, string> = EMBEDDED ? { WORKER_LISTEN: 'false', WORKER_POLL_MS: '100' } : {};

/**
 * What every test app and service process runs with unless a test says otherwise: every source
 * authenticated (postWebhook signs), and a retention longer than the age of the fixtures'
 * 2025 source times, which the stale-replay guard would otherwise ignore
 * (test/stale-guard.e2e-spec.ts covers the guard with the default retention).
 */
export const TEST_SETTINGS: Record<string, string> = { ...EMBEDDED_SETTINGS, ...TEST_SECRETS, RETENTION_DAYS: '36500' };

export interface TestApp {
  app: NestExpressApplication;
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the real application (same bootstrap as production) on a free loopback port.
 * `env` is applied only while the app is built, so apps in one file do not leak settings.
 * The worker is off unless `env` turns it on, so ingestion tests see events as stored.
 */
export async function startTestApp(env: Record<string, string | undefined>): Promise<TestApp> {
  const saved = { ...process.env };
  Object.assign(process.env, { LOG_LEVEL: 'error', WORKER_ENABLED: 'false', ...TEST_SETTINGS, ...env });
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  let app: NestExpressApplication;
  try {
    app = await createApp();
  } finally {
    process.env = saved;
  }
  await loadPrismaRuntime(app);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, baseUrl: `http://127.0.0.1:${port}`, close: () => app.close() };
}

/**
 * Prisma loads parts of its runtime on the first query. Jest refuses imports between tests,
 * so a worker whose first query starts as beforeAll ends would fail it: run one query first.
 */
export async function loadPrismaRuntime(app: INestApplicationContext): Promise<void> {
  await app.get(PrismaService).$queryRaw`SELECT 1`;
}

export interface Posted<T = unknown> {
  status: number;
  body: T;
}

export interface PostOptions {
  /** Add every source's signature made with TEST_SECRETS (default); `headers` still win. */
  sign?: boolean;
  /** Default `/webhook`; e.g. `/webhook/meta`. */
  path?: string;
}

/** POSTs a JSON body (a string is sent as is), signed for every source unless told not to; returns status and parsed answer. */
export async function postWebhook<T = WebhookAnswer>(
  baseUrl: string,
  body: unknown,
  headers: Record<string, string> = {},
  { sign = true, path = '/webhook' }: PostOptions = {},
): Promise<Posted<T>> {
  const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const signatures = sign ? signedForEverySource(raw.toString()) : {};
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signatures, ...headers },
    body: raw,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* non-JSON answers are returned as text */
  }
  return { status: res.status, body: parsed as T };
}

export interface WebhookAnswer {
  accepted: number;
  duplicates: number;
  stale: number;
  events: { id: string; result: 'accepted' | 'duplicate' | 'stale' }[];
  message?: string;
}

export interface ServiceUnderTest {
  db: TestDatabase;
  service: TestApp;
}

/**
 * Jest hooks for a test file: a fresh database and the app on it, before all tests, and both
 * gone after. The returned object is filled in by beforeAll.
 */
export function useServiceWithDatabase(env: Record<string, string> = {}): ServiceUnderTest {
  const context = {} as ServiceUnderTest;
  beforeAll(async () => {
    context.db = await createTestDatabase();
    context.service = await startTestApp({ DATABASE_URL: context.db.url, ...env });
  });
  afterAll(async () => {
    await context.service?.close();
    await context.db?.drop();
  });
  return context;
}
