/**
 * The key of one effect of an event: the event key, and for the n-th replay from the start
 * `<event key>:replay-<n>`. Retries keep it; a deliberate replay gets a new one.
 */
export function effectKey(eventKey: string, replay: number): string {
  return replay === 0 ? eventKey : `${eventKey}:replay-${replay}`;
}
