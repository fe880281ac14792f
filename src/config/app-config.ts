import { loadSettings, type LoadedSettings } from './load-settings.js';
import type { ConsoleSettings } from './settings/console.settings.js';
import type { DatabaseSettings } from './settings/database.settings.js';
import type { DestinationsSettings } from './settings/destinations.settings.js';
import type { EnvironmentSettings } from './settings/environment.settings.js';
import type { HttpSettings } from './settings/http.settings.js';
import type { IngestSettings } from './settings/ingest.settings.js';
import type { LoggingSettings } from './settings/logging.settings.js';
import type { MetricsSettings } from './settings/metrics.settings.js';
import type { RetentionSettings } from './settings/retention.settings.js';
import type { StepsSettings } from './settings/steps.settings.js';
import type { TrustSettings } from './settings/trust.settings.js';
import type { WorkerSettings } from './settings/worker.settings.js';
import { SETTINGS } from './settings-registry.js';
import type { SourceSettings } from './source-settings.js';

export { LOG_LEVELS, type LogLevel } from './settings/logging.settings.js';

/**
 * Every feature's settings in one object, for the code that still injects them all at once.
 * A feature should inject its own settings class instead (src/config/settings/); the class is
 * the injection token (it has no fields of its own), the interface of the same name gives it
 * every feature's fields.
 */
export class AppConfig {}
export interface AppConfig
  extends EnvironmentSettings, DatabaseSettings, HttpSettings, LoggingSettings, IngestSettings, SourceSettings, TrustSettings,
    WorkerSettings, StepsSettings, DestinationsSettings, RetentionSettings, MetricsSettings, ConsoleSettings {}

/** Validates every feature's settings (a wrong value throws, naming the variable) and merges them. */
export function validateConfig(env: Record<string, unknown>): AppConfig {
  return mergeSettings(loadSettings(env, SETTINGS));
}

export function mergeSettings(loaded: LoadedSettings): AppConfig {
  return Object.assign(new AppConfig(), ...loaded.all()) as AppConfig;
}
