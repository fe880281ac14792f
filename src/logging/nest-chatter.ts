import type { LoggerService } from '@nestjs/common';

/** Nest's own start-up lines: a line per module and per route, useful only when debugging the wiring. */
const NEST_CHATTER = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/**
 * The application's logger, with Nest's module-loading and route-mapping lines moved to debug:
 * at info, a start would print some fifty of them before the one line that matters (where the
 * service listens). Everything else passes through unchanged.
 */
export function withNestChatterAtDebug(logger: LoggerService): LoggerService {
  return new Proxy(logger, {
    get(target, property, receiver) {
      if (property !== 'log') return Reflect.get(target, property, receiver) as unknown;
      return (message: unknown, ...rest: unknown[]) => {
        const context = rest.at(-1);
        const quiet = typeof context === 'string' && NEST_CHATTER.has(context) && typeof target.debug === 'function';
        return quiet ? target.debug!(message, ...rest) : target.log(message, ...rest);
      };
    },
  });
}
