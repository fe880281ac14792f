import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { Logger } from 'nestjs-pino';
import { join } from 'node:path';
import { createApp } from './app.setup.js';
import { listeningOn } from './common/listen-address.js';
import { startLine } from './common/start-line.js';
import { CONSOLE_DIR } from './operator-console/serve-console.js';
import { loadSettings } from './config/load-settings.js';
import { ConsoleSettings } from './operator-console/console.settings.js';
import { HttpSettings } from './http/http.settings.js';
import { IngestSettings } from './sources/ingest.settings.js';
import { WorkerSettings } from './queue/worker.settings.js';
import { embeddedNotice, useEmbeddedDatabaseIfUnconfigured } from './embedded/embedded-mode.js';
import { SETTINGS } from './settings.js';
import { exitCleanlyOnSignals } from './shutdown.js';

if (existsSync('.env')) process.loadEnvFile('.env');
const embedded = await useEmbeddedDatabaseIfUnconfigured(process.env).catch((error: Error) => {
  console.error(`cannot start the embedded database: ${error.message}`);
  process.exit(1);
});

try {
  loadSettings(process.env, SETTINGS); // fail fast, naming the variable, before anything connects
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

// Module init runs here, not in listen(), so a refusal to start (e.g. no INSPECTION_API_KEY in
// production) reads as one line, not a stack trace.
const app = await createApp()
  .then((created) => created.init())
  .catch((error: Error) => {
    console.error(`cannot start: ${error.message}`);
    process.exit(1);
  });
const { HOST: host, PORT: port } = app.get(HttpSettings);
const listening = host === undefined ? app.listen(port) : app.listen(port, host);
const server = await listening.catch((error: Error) => {
  // EADDRINUSE, or a HOST that is no address of this machine (EADDRNOTAVAIL) or does not resolve.
  console.error(`cannot listen on port ${port} of ${host ?? 'every interface'}: ${error.message}`);
  process.exit(1);
});
const logger = app.get(Logger);
exitCleanlyOnSignals(app, logger, app.get(WorkerSettings).SHUTDOWN_TIMEOUT_MS + 5000, () => embedded?.stop());
if (embedded) logger.log(embeddedNotice(embedded), 'Bootstrap');
logger.log(`listening on ${listeningOn(server.address(), host)}`, 'Bootstrap');
const consoleState = !app.get(ConsoleSettings).CONSOLE_ENABLED ? 'disabled' : existsSync(join(CONSOLE_DIR, 'index.html')) ? 'served' : 'not built';
logger.log(startLine({ address: server.address(), host, sources: app.get(IngestSettings).WEBHOOK_PROVIDERS, console: consoleState }), 'Bootstrap');
