import type { INestApplicationContext, LoggerService } from '@nestjs/common';

/**
 * SIGTERM/SIGINT: close the application (the worker drains, HTTP stops, then the database pool
 * closes), then whatever `afterClose` stops (the embedded database), and exit 0. Nest's own shutdown hooks re-raise the signal instead, which reports a
 * clean stop as a crash to orchestrators. A close that hangs past the grace period exits 1.
 */
export function exitCleanlyOnSignals(
  app: INestApplicationContext,
  logger: LoggerService,
  graceMs: number,
  afterClose: () => Promise<void> | void = () => undefined,
): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.log(`${signal} received: shutting down`, 'Bootstrap');
    setTimeout(() => {
      logger.error(`shutdown did not finish within ${graceMs} ms: exiting`, undefined, 'Bootstrap');
      process.exit(1);
    }, graceMs).unref();
    app
      .close()
      .then(afterClose)
      .then(
        () => process.exit(0),
        (error: Error) => {
          logger.error(`shutdown failed: ${error.message}`, error.stack, 'Bootstrap');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
