import { Global, Module, type Provider } from '@nestjs/common';
import { AppConfig, mergeSettings } from './app-config.js';
import { LoadedSettings, loadSettings } from './load-settings.js';
import { SETTINGS } from './settings-registry.js';

/**
 * Validates the environment once at boot and provides each feature's settings class on its
 * own, so a feature injects only what it reads; AppConfig, every feature's fields together,
 * stays provided for the code not yet switched.
 */
const providers: Provider[] = [
  { provide: LoadedSettings, useFactory: () => loadSettings(process.env, SETTINGS) },
  ...SETTINGS.map((settings) => ({ provide: settings, inject: [LoadedSettings], useFactory: (loaded: LoadedSettings) => loaded.get(settings) })),
  { provide: AppConfig, inject: [LoadedSettings], useFactory: mergeSettings },
];

@Global()
@Module({ providers, exports: [LoadedSettings, AppConfig, ...SETTINGS] })
export class ConfigModule {}
