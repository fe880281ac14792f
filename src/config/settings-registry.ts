import { ConsoleSettings } from './settings/console.settings.js';
import { DatabaseSettings } from './settings/database.settings.js';
import { DestinationsSettings } from './settings/destinations.settings.js';
import { EnvironmentSettings } from './settings/environment.settings.js';
import { HttpSettings } from './settings/http.settings.js';
import { IngestSettings } from './settings/ingest.settings.js';
import { LoggingSettings } from './settings/logging.settings.js';
import { MetricsSettings } from './settings/metrics.settings.js';
import { RetentionSettings } from './settings/retention.settings.js';
import type { SettingsClass } from './settings/setting.js';
import { StepsSettings } from './settings/steps.settings.js';
import { TrustSettings } from './settings/trust.settings.js';
import { WorkerSettings } from './settings/worker.settings.js';
import { SourceSettings } from './source-settings.js';

/**
 * Every settings class, wherever it is declared: each is validated at boot from the same
 * environment (src/config/load-settings.ts), provided for injection on its own (ConfigModule)
 * and printed in docs/configuration.md, in this order. A feature's settings are added here,
 * or spread in from the list that owns them (a source's, from the source registry); nothing
 * else needs to name them.
 */
export const SETTINGS: readonly SettingsClass[] = [
  EnvironmentSettings,
  DatabaseSettings,
  HttpSettings,
  LoggingSettings,
  IngestSettings,
  SourceSettings,
  TrustSettings,
  WorkerSettings,
  StepsSettings,
  DestinationsSettings,
  RetentionSettings,
  MetricsSettings,
  ConsoleSettings,
];
