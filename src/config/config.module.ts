import { Global, Module } from '@nestjs/common';
import { AppConfig, validateConfig } from './app-config.js';

/** Validates the environment once at boot and provides it as the typed AppConfig. */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: () => validateConfig(process.env) }],
  exports: [AppConfig],
})
export class ConfigModule {}
