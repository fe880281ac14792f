import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppConfig, validateConfig } from './config/app-config.js';
import { exitCleanlyOnSignals } from './shutdown.js';
import { WorkerAppModule } from './worker-app.module.js';

// `npm run start:worker`: the worker alone, no HTTP. Run any number of these.
if (existsSync('.env')) process.loadEnvFile('.env');
process.env.WORKER_ENABLED = 'true';

try {
  validateConfig(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const app = await NestFactory.createApplicationContext(WorkerAppModule, { bufferLogs: true, abortOnError: false });
const logger = app.get(Logger);
app.useLogger(logger);
await app.init();
exitCleanlyOnSignals(app, logger, app.get(AppConfig).SHUTDOWN_TIMEOUT_MS + 5000);
logger.log('worker process ready', 'Bootstrap');
