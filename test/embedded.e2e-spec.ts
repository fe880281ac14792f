import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metaText, uniqueId } from './support/payloads.js';
import { startServiceProcess } from './support/service-process.js';
import { postWebhook } from './support/test-app.js';

/** `npm start` on a fresh machine: no DATABASE_URL, so the embedded PostgreSQL in a data directory. */
describe('the service without DATABASE_URL', () => {
  const parent = mkdtempSync(join(tmpdir(), 'wdd-embedded-'));
  const dataDir = join(parent, 'pglite');
  afterAll(() => rmSync(parent, { recursive: true, force: true }));
  const start = () => startServiceProcess({ DATABASE_URL: '', EMBEDDED_DATA_DIR: dataDir, WORKER_ENABLED: 'true' });

  it('runs on the embedded database, keeps its data across restarts, and still knows a redelivery', async () => {
    const wamid = uniqueId();
    const first = await start();
    expect(first.output()).toMatch(/no DATABASE_URL: using the embedded PostgreSQL \(PGlite\)/);
    expect(first.output()).toMatch(/set DATABASE_URL=postgresql:\/\//);
    expect((await postWebhook(first.baseUrl, metaText(wamid))).body.accepted).toBe(1);
    expect((await fetch(`${first.baseUrl}/health/ready`)).status).toBe(200);
    expect(await first.stop()).toEqual({ code: 0, signal: null });
    expect(existsSync(join(parent, 'pglite.pid'))).toBe(false);

    const second = await start();
    try {
      expect((await postWebhook(second.baseUrl, metaText(wamid))).body).toMatchObject({ accepted: 0, duplicates: 1 });
      const detail = await (await fetch(`${second.baseUrl}/messages/${encodeURIComponent(`meta:msg:${wamid}`)}`)).json();
      expect(detail).toMatchObject({ status: 'processed', duplicateCount: 1 });
    } finally {
      expect(await second.stop()).toEqual({ code: 0, signal: null });
    }
  }, 90_000);

  it('refuses a second process on the same data directory', async () => {
    const first = await start();
    try {
      await expect(start()).rejects.toThrow(/is in use by process \d+/);
    } finally {
      await first.stop();
    }
  }, 60_000);
});
