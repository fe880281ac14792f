import { Global, Module } from '@nestjs/common';
import { InboxStatsRepository } from './inbox-stats.repository.js';
import { MetricsService } from './metrics.service.js';

/**
 * The metrics registry and its recorders, for every module of the process (HTTP app and
 * standalone worker alike). Exposing them over HTTP is MetricsHttpModule's job.
 */
@Global()
@Module({ providers: [InboxStatsRepository, MetricsService], exports: [MetricsService] })
export class MetricsModule {}
