import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { DatabaseIndicator, LivenessIndicator, MigrationsIndicator } from './health.indicators.js';

/** Terminus' answer, for the OpenAPI document (its own swagger decorators are not applied under ESM). */
const healthSchema = (status: 'ok' | 'error', example: Record<string, unknown>) => ({
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'error', 'shutting_down'], example: status },
    info: { type: 'object', additionalProperties: { type: 'object' }, description: 'the checks that are up' },
    error: { type: 'object', additionalProperties: { type: 'object' }, description: 'the checks that are down' },
    details: { type: 'object', additionalProperties: { type: 'object' }, description: 'every check', example },
  },
});

/**
 * Two probes with two audiences. Liveness (restart me if this fails) depends on nothing
 * outside the process: a database outage must not make an orchestrator restart every
 * instance, which would fix nothing. Readiness (send me traffic) needs the database and the
 * schema this build expects. Both answer in terminus' format: 200 `status: ok`, else 503
 * with the failing checks under `error` and `details`.
 */
@Controller('health')
@ApiTags('operations')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly liveness: LivenessIndicator,
    private readonly database: DatabaseIndicator,
    private readonly migrations: MigrationsIndicator,
  ) {}

  /** Liveness: 200 while the process is up and its event loop turns. */
  @Get()
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness: the process is up and its event loop turns (never depends on the database)' })
  @ApiOkResponse({
    description: 'alive',
    schema: healthSchema('ok', { event_loop: { status: 'up', uptimeSeconds: 120, responseTime: 0 } }),
  })
  @ApiServiceUnavailableResponse({ description: 'shutting down', schema: healthSchema('error', {}) })
  live(): Promise<HealthCheckResult> {
    return this.health.check([() => this.liveness.eventLoop('event_loop')]);
  }

  /** Readiness: 200 when the database answers within 2 s and every committed migration is applied. */
  @Get('ready')
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness: the database answers within 2 s and every committed migration is applied' })
  @ApiOkResponse({
    description: 'ready for traffic',
    schema: healthSchema('ok', { database: { status: 'up', responseTime: 1 }, migrations: { status: 'up', applied: 3 } }),
  })
  @ApiServiceUnavailableResponse({
    description: 'not ready: the failing checks say why',
    schema: healthSchema('error', {
      database: { status: 'up', responseTime: 1 },
      migrations: { status: 'down', pending: ['20261129130000_inspection_indexes'], message: '1 committed migration(s) not applied' },
    }),
  })
  ready(): Promise<HealthCheckResult> {
    return this.health.check([() => this.database.pingCheck('database'), () => this.migrations.isApplied('migrations')]);
  }
}
