import { InvalidPayloadError } from './domain-errors.js';

/**
 * Runs a recursive walk over a request body. Only absurd nesting exhausts the stack; that is
 * the sender's fault (400), not a server error.
 */
export function withinNestingLimit<T>(walk: () => T): T {
  try {
    return walk();
  } catch (error) {
    if (error instanceof RangeError) throw new InvalidPayloadError('body is nested too deeply');
    throw error;
  }
}
