import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where `npm run build` puts the operator console (dist/console), from src/ (tests) and dist/
 * alike. This folder is not named console: its own build output (dist/operator-console) must
 * never land in the folder Vite empties.
 */
export const CONSOLE_DIR = fileURLToPath(new URL('../../dist/console', import.meta.url));

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
