import { startDownstream, type Downstream, type ReceivedRequest, type Reply } from './downstream.js';
import { startTestApp, type TestApp } from './test-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export interface ForwardingSetup {
  db: TestDatabase;
  app: TestApp;
  downstream: Downstream;
}

/**
 * Jest hooks for a fresh database, a loopback downstream answering `reply`, and the service with
 * its worker on and FORWARD_URL pointing there (plus `env`). Filled in by beforeAll.
 */
export function useServiceWithDownstream(
  reply: (n: number, req: ReceivedRequest) => Reply,
  env: Record<string, string> = {},
): ForwardingSetup {
  const setup = {} as ForwardingSetup;
  beforeAll(async () => {
    setup.db = await createTestDatabase();
    setup.downstream = await startDownstream(reply);
    setup.app = await startTestApp({ DATABASE_URL: setup.db.url, WORKER_ENABLED: 'true', FORWARD_URL: setup.downstream.url, ...env });
  });
  afterAll(async () => {
    await setup.app?.close();
    await setup.downstream?.close();
    await setup.db?.drop();
  });
  return setup;
}
