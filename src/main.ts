import 'reflect-metadata';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Logger } from 'nestjs-pino';
import { createApp } from './app.setup.js';
import { AppConfig, validateConfig } from './config/app-config.js';

if (existsSync('.env')) process.loadEnvFile('.env');

try {
  validateConfig(process.env); // fail fast, naming the variable, before anything connects
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const app = await createApp();
const server = await app.listen(app.get(AppConfig).PORT);
// Keep-alive longer than typical load balancers' idle timeout, so they never reuse a closed socket.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
app.get(Logger).log(`listening on port ${(server.address() as AddressInfo).port}`, 'Bootstrap');
