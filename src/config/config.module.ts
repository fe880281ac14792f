import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { LoadedSettings, loadSettings } from './load-settings.js';
import type { SettingsClass } from './settings/setting.js';

/**
 * Validates the environment once at boot and provides each feature's settings class on its
 * own, so a feature injects only what it reads. The classes are handed in (src/settings.ts):
 * this mechanism imports no feature.
 */
@Module({})
export class ConfigModule {
  static forRoot(classes: readonly SettingsClass[]): DynamicModule {
    const providers: Provider[] = [
      { provide: LoadedSettings, useFactory: () => loadSettings(process.env, classes) },
      ...classes.map((settings) => ({ provide: settings, inject: [LoadedSettings], useFactory: (loaded: LoadedSettings) => loaded.get(settings) })),
    ];
    return { module: ConfigModule, global: true, providers, exports: [LoadedSettings, ...classes] };
  }
}
