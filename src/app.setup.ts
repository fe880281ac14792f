import { NestFactory } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { AppConfig } from './config/app-config.js';
import { withNestChatterAtDebug } from './logging/nest-chatter.js';
import { setUpOpenApi } from './openapi.js';

/**
 * Builds the HTTP application exactly as it runs in production; tests use it too, so body
 * limits and raw-body capture are the same everywhere.
 */
export async function createApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    rawBody: true, // signatures are computed over the exact bytes
    bodyParser: false, // only JSON is registered below: a form body must not parse into an object
    bufferLogs: true,
    abortOnError: false, // throw instead of process.abort(): callers decide how to exit
  });
  app.useLogger(withNestChatterAtDebug(app.get(Logger)));
  const config = app.get(AppConfig);
  // Meta batches up to 1,000 updates (documented maximum 3 MB); the usual 100 kB would reject them.
  app.useBodyParser('json', { limit: config.WEBHOOK_BODY_LIMIT, type: ['application/json', 'application/*+json'] });
  app.disable('x-powered-by');
  setUpOpenApi(app);
  if (config.CONSOLE_ENABLED) serveConsole(app);
  return app;
}

/** `npm run build` puts the operator console here (dist/console), from src/ (tests) and from dist/ alike. */
export const CONSOLE_DIR = fileURLToPath(new URL('../dist/console', import.meta.url));

const CONSOLE_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The operator console (console/, built by `npm run build`) at /console/: a static page that
 * calls the operator API with the operator's key. Hashed assets are cached for a year, index.html
 * is revalidated on every load; hash routes (#/events/…) need no server fallback. Without a
 * build, /console answers a 503 saying how to make one.
 */
export function serveConsole(app: NestExpressApplication, dir = CONSOLE_DIR): void {
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path !== '/console') return next();
    const query = req.originalUrl.indexOf('?');
    res.redirect(301, `/console/${query === -1 ? '' : req.originalUrl.slice(query)}`);
  });
  app.useStaticAssets(dir, {
    prefix: '/console',
    index: 'index.html',
    setHeaders: (res, path) => {
      for (const [name, value] of Object.entries(CONSOLE_HEADERS)) res.setHeader(name, value);
      res.setHeader('Cache-Control', path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });
  app.use('/console', (_req: Request, res: Response) => {
    const built = existsSync(join(dir, 'index.html'));
    res.status(built ? 404 : 503).type('text/plain').send(
      built ? 'Not found: no such file in the operator console.\n' : 'The operator console is not built: run `npm run build` (it builds the service and the console into dist/).\n',
    );
  });
}
