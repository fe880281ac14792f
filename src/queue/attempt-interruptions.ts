/** Abort reasons the worker gives an attempt's signal; the processor tells them apart. */

/** The attempt ran past ATTEMPT_TIMEOUT_SECONDS: it fails and is retried. */
export class AttemptDeadlineError extends Error {
  constructor(readonly deadlineMs: number) {
    super(`attempt exceeded ${deadlineMs} ms (ATTEMPT_TIMEOUT_SECONDS)`);
    this.name = 'AttemptDeadlineError';
  }
}

/** The lease could not be renewed (another worker holds the event now): stop, write nothing. */
export class LeaseLostError extends Error {
  constructor() {
    super('the lease was lost: another worker may hold the event now');
    this.name = 'LeaseLostError';
  }
}

/** The process is shutting down: the event is released unfinished, the attempt not counted. */
export class ShutdownInterruption extends Error {
  constructor() {
    super('the worker is shutting down');
    this.name = 'ShutdownInterruption';
  }
}
