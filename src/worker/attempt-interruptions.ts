/** Abort reasons the worker gives an attempt's signal; the processor tells them apart. */

/** The lease is nearly over: the attempt fails (and is retried) before another worker may take it. */
export class AttemptDeadlineError extends Error {
  constructor(deadlineMs: number) {
    super(`attempt exceeded ${deadlineMs} ms (80 % of LEASE_SECONDS)`);
    this.name = 'AttemptDeadlineError';
  }
}

/** The process is shutting down: the event is released unfinished, the attempt not counted. */
export class ShutdownInterruption extends Error {
  constructor() {
    super('the worker is shutting down');
    this.name = 'ShutdownInterruption';
  }
}
