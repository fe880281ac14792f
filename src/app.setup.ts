import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import type { Server } from 'node:http';
import { ConsoleSettings } from './operator-console/console.settings.js';
import { HttpSettings } from './http/http.settings.js';
import { securityHeaders } from './http/security-headers.js';
import { applyServerTimeouts } from './http/server-timeouts.js';
import { closeWhenBodyUnread } from './http/unread-body.js';
import { serveConsole } from './operator-console/serve-console.js';
import { withNestChatterAtDebug } from './logging/nest-chatter.js';
import { setUpOpenApi } from './openapi.js';

/**
 * Builds the HTTP application exactly as it runs in production; tests use it too, so body
 * handling, timeouts and security headers are the same everywhere.
 */
export async function createApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false, // no route served by Express takes a body (unread-body.ts); the webhook ingress reads its own
    bufferLogs: true,
    abortOnError: false, // throw instead of process.abort(): callers decide how to exit
  });
  app.useLogger(withNestChatterAtDebug(app.get(Logger)));
  applyServerTimeouts(app.getHttpServer() as Server, app.get(HttpSettings));
  app.use(closeWhenBodyUnread);
  app.use(securityHeaders());
  app.disable('x-powered-by');
  setUpOpenApi(app);
  if (app.get(ConsoleSettings).CONSOLE_ENABLED) serveConsole(app);
  return app;
}
