import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module.js';
import { AppConfig } from './config/app-config.js';
import { serveConsole } from './operator-console/serve-console.js';
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
