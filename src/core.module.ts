import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { EnvironmentSettings } from './config/settings/environment.settings.js';
import { LoggingSettings } from './logging/logging.settings.js';
import { ConfigModule } from './config/config.module.js';
import { SETTINGS } from './settings.js';
import { DatabaseModule } from './database/database.module.js';
import { loggerOptions } from './logging/logger-options.js';
import { MetricsModule } from './metrics/metrics.module.js';
import { MigrationsModule } from './migrations/migrations.module.js';
import { PrismaModule } from './prisma/prisma.module.js';
import { RetentionModule } from './retention/retention.module.js';
import { StepsModule } from './steps/steps.module.js';
import { WorkerModule } from './inbox/worker.module.js';

/** Everything but HTTP: what `npm run start:worker` runs, and the base of AppModule. */
@Module({
  imports: [
    ConfigModule.forRoot(SETTINGS),
    LoggerModule.forRootAsync({
      inject: [LoggingSettings, EnvironmentSettings],
      useFactory: (logging: LoggingSettings, environment: EnvironmentSettings) => loggerOptions({ ...environment, ...logging }),
    }),
    PrismaModule,
    DatabaseModule,
    MetricsModule,
    MigrationsModule,
    WorkerModule,
    StepsModule,
    RetentionModule,
  ],
})
export class CoreModule {}
