import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { withNestChatterAtDebug } from './logging/nest-chatter.js';
import { listeningOn } from './common/listen-address.js';
import { AppConfig, validateConfig } from './config/app-config.js';
import { serveWorkerMetrics } from './metrics/metrics-server.js';
import { MetricsService } from './metrics/metrics.service.js';
import { exitCleanlyOnSignals } from './shutdown.js';
import { WorkerAppModule } from './worker-app.module.js';

// `npm run start:worker`: the worker alone, no HTTP. Run any number of these.
if (existsSync('.env')) process.loadEnvFile('.env');
process.env.WORKER_ENABLED = 'true';
if (!process.env.DATABASE_URL) {
  // The embedded database serves the one `npm start` process; workers of their own need a shared PostgreSQL.
  console.error('DATABASE_URL is required: the standalone worker shares a PostgreSQL with the service');
  process.exit(1);
}

try {
  validateConfig(process.env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const app = await NestFactory.createApplicationContext(WorkerAppModule, { bufferLogs: true, abortOnError: false });
const logger = app.get(Logger);
app.useLogger(withNestChatterAtDebug(logger));
await app.init();
const config = app.get(AppConfig);
exitCleanlyOnSignals(app, logger, config.SHUTDOWN_TIMEOUT_MS + 5000);
if (config.WORKER_METRICS_PORT !== undefined) {
  const server = await serveWorkerMetrics(app.get(MetricsService), config.WORKER_METRICS_PORT, config.HOST).catch((error: Error) => {
    console.error(`cannot serve metrics on port ${config.WORKER_METRICS_PORT} of ${config.HOST ?? 'every interface'}: ${error.message}`);
    process.exit(1);
  });
  logger.log(`metrics on ${listeningOn(server.address(), config.HOST)}`, 'Bootstrap');
}
logger.log('worker process ready', 'Bootstrap');
