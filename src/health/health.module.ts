import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { DatabaseIndicator, LivenessIndicator, MigrationsIndicator } from './health.indicators.js';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [LivenessIndicator, DatabaseIndicator, MigrationsIndicator],
})
export class HealthModule {}
