import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSOLE_DIR, serveConsole } from '../../src/operator-console/serve-console.js';
import { startTestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** /console: the built console, served by the service itself (npm run build makes dist/console). */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

describe('the operator console at /console', () => {
  it('redirects /console to /console/, serves index.html uncached and the hashed assets for a year', async () => {
    if (!existsSync(join(CONSOLE_DIR, 'index.html'))) throw new Error(`${CONSOLE_DIR} is missing: run \`npm run build\` first (npm test does)`);
    const app = await startTestApp({ DATABASE_URL: db.url, INSPECTION_API_KEY: 'console-serving-key-0001' });
    try {
      const redirect = await fetch(`${app.baseUrl}/console?x=1`, { redirect: 'manual' });
      expect(redirect.status).toBe(301);
      expect(redirect.headers.get('location')).toBe('/console/?x=1');

      const index = await fetch(`${app.baseUrl}/console/`); // no key needed for the page: the API asks for it
      expect(index.status).toBe(200);
      expect(index.headers.get('content-type')).toMatch(/^text\/html/);
      expect(index.headers.get('cache-control')).toBe('no-cache');
      expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await index.text();
      expect(html).toBe(readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8'));

      const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);
      expect(assets.length).toBeGreaterThanOrEqual(2); // the script and the stylesheet
      for (const asset of assets) {
        expect(asset).toMatch(/-[\w-]{8}\.(js|css)$/); // hashed: a new build is a new name
        const response = await fetch(`${app.baseUrl}${asset}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      }

      const missing = await fetch(`${app.baseUrl}/console/assets/nothing-here.js`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toContain('no such file in the operator console');
    } finally {
      await app.close();
    }
  });

  it('is not served with CONSOLE_ENABLED=false', async () => {
    const app = await startTestApp({ DATABASE_URL: db.url, CONSOLE_ENABLED: 'false' });
    try {
      expect((await fetch(`${app.baseUrl}/console/`)).status).toBe(404);
      expect((await fetch(`${app.baseUrl}/console`, { redirect: 'manual' })).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('without a build (nest build alone), answers 503 saying to run npm run build', async () => {
    @Module({})
    class EmptyModule {}
    const app = await NestFactory.create<NestExpressApplication>(EmptyModule, { logger: false });
    serveConsole(app, mkdtempSync(join(tmpdir(), 'wdd-console-unbuilt-')));
    await app.listen(0, '127.0.0.1');
    try {
      const { port } = app.getHttpServer().address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/console`);
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toContain('run `npm run build`');
    } finally {
      await app.close();
    }
  });
});
