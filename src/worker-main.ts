import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { withNestChatterAtDebug } from './logging/nest-chatter.js';
import { listeningOn } from './common/listen-address.js';
import { loadSettings } from './config/load-settings.js';
import { HttpSettings } from './http/http.settings.js';
import { MetricsSettings } from './metrics/metrics.settings.js';
import { WorkerSettings } from './queue/worker.settings.js';
import { serveWorkerMetrics } from './metrics/metrics-server.js';
import { MetricsService } from './metrics/metrics.service.js';
import { SETTINGS } from './settings.js';
import { exitCleanlyOnSignals } from './shutdown.js';
import { CoreModule } from './core.module.js';

// `npm run start:worker`: the worker alone, no HTTP. Run any number of these.
if (existsSync('.env')) process.loadEnvFile('.env');
process.env.WORKER_ENABLED = 'true';
if (!process.env.DATABASE_URL) {
  // The embedded database serves the one `npm start` process; workers of their own need a shared PostgreSQL.
  console.error('DATABASE_URL is required: the standalone worker shares a PostgreSQL with the service');
  process.exit(1);
}

try {
  loadSettings(process.env, SETTINGS);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const app = await NestFactory.createApplicationContext(CoreModule, { bufferLogs: true, abortOnError: false });
const logger = app.get(Logger);
app.useLogger(withNestChatterAtDebug(logger));
await app.init();
exitCleanlyOnSignals(app, logger, app.get(WorkerSettings).SHUTDOWN_TIMEOUT_MS + 5000);
const { WORKER_METRICS_PORT: metricsPort } = app.get(MetricsSettings);
const { HOST: host } = app.get(HttpSettings);
if (metricsPort !== undefined) {
  const server = await serveWorkerMetrics(app.get(MetricsService), metricsPort, host).catch((error: Error) => {
    console.error(`cannot serve metrics on port ${metricsPort} of ${host ?? 'every interface'}: ${error.message}`);
    process.exit(1);
  });
  logger.log(`metrics on ${listeningOn(server.address(), host)}`, 'Bootstrap');
}
logger.log('worker process ready', 'Bootstrap');
