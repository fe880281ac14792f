import { EnvironmentSettings } from './config/settings/environment.settings.js';
import type { SettingsClass } from './config/settings/setting.js';
import { DestinationsSettings } from './destinations/destinations.settings.js';
import { HttpSettings } from './http/http.settings.js';
import { LoggingSettings } from './logging/logging.settings.js';
import { MetricsSettings } from './metrics/metrics.settings.js';
import { ConsoleSettings } from './operator-console/console.settings.js';
import { StepsSettings } from './outbound/steps.settings.js';
import { DatabaseSettings } from './prisma/database.settings.js';
import { WorkerSettings } from './queue/worker.settings.js';
import { RetentionSettings } from './retention/retention.settings.js';
import { IngestSettings } from './sources/ingest.settings.js';
import { SOURCES } from './sources/source-registry.js';
import { TrustSettings } from './sources/trust.settings.js';

/**
 * Every settings class, each declared in the folder of the code that reads it: each is validated
 * at boot from the same environment (src/config/load-settings.ts), provided for injection on its
 * own (ConfigModule) and printed in docs/configuration.md, in this order. A feature's settings
 * are added here; a source's come from its descriptor in the source registry, so adding a source
 * names its settings nowhere else. This list lives at the top of src/, above the features: the
 * settings mechanism (src/config) imports none of them.
 */
export const SETTINGS: readonly SettingsClass[] = [
  EnvironmentSettings,
  DatabaseSettings,
  HttpSettings,
  LoggingSettings,
  IngestSettings,
  ...SOURCES.flatMap((source) => source.settings ?? []),
  TrustSettings,
  WorkerSettings,
  StepsSettings,
  DestinationsSettings,
  RetentionSettings,
  MetricsSettings,
  ConsoleSettings,
];
