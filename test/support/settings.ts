import { loadSettings } from '../../src/config/load-settings.js';
import type { EnvironmentSettings } from '../../src/config/settings/environment.settings.js';
import type { DestinationsSettings } from '../../src/destinations/destinations.settings.js';
import type { HttpSettings } from '../../src/http/http.settings.js';
import type { LoggingSettings } from '../../src/logging/logging.settings.js';
import type { MetricsSettings } from '../../src/metrics/metrics.settings.js';
import type { ConsoleSettings } from '../../src/operator-console/console.settings.js';
import type { StepsSettings } from '../../src/outbound/steps.settings.js';
import type { DatabaseSettings } from '../../src/prisma/database.settings.js';
import type { WorkerSettings } from '../../src/queue/worker.settings.js';
import type { RetentionSettings } from '../../src/retention/retention.settings.js';
import { SETTINGS } from '../../src/settings.js';
import type { Dialog360Settings } from '../../src/sources/360dialog/dialog360.settings.js';
import type { EvolutionSettings } from '../../src/sources/evolution/evolution.settings.js';
import type { GenericSettings } from '../../src/sources/generic/generic.settings.js';
import type { IngestSettings } from '../../src/sources/ingest.settings.js';
import type { MetaSettings } from '../../src/sources/meta/meta.settings.js';
import type { TrustSettings } from '../../src/sources/trust.settings.js';
import type { TwilioSettings } from '../../src/sources/twilio/twilio.settings.js';
import type { WahaSettings } from '../../src/sources/waha/waha.settings.js';
import type { WasenderSettings } from '../../src/sources/wasender/wasender.settings.js';

/** Every feature's settings in one object: one value a test can hand to any class that takes one feature's. */
export type AllSettings = EnvironmentSettings & DatabaseSettings & HttpSettings & LoggingSettings & IngestSettings & TrustSettings
  & WorkerSettings & StepsSettings & DestinationsSettings & RetentionSettings & MetricsSettings & ConsoleSettings
  & MetaSettings & WasenderSettings & GenericSettings & TwilioSettings & Dialog360Settings & WahaSettings & EvolutionSettings;

/**
 * Validates `env` as boot does (every settings class of src/settings.ts; a wrong value throws,
 * naming the variable) and merges the classes' fields, for tests that read several features.
 */
export function validateConfig(env: Record<string, unknown>): AllSettings {
  return Object.assign({}, ...loadSettings(env, SETTINGS).all()) as AllSettings;
}
