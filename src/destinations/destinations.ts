import { Injectable } from '@nestjs/common';
import { DestinationsSettings } from './destinations.settings.js';
import { StepsSettings } from '../outbound/steps.settings.js';
import { WorkerSettings } from '../queue/worker.settings.js';
import { forwardTarget, type ForwardTarget } from '../outbound/forward-client.js';
import type { Destination } from './destination.js';
import { loadDestinationsFile } from './destinations-file.js';

/** A configured destination, ready to send to. */
export interface ActiveDestination {
  config: Destination;
  target: ForwardTarget;
}

/**
 * The destinations of DESTINATIONS_FILE, read and validated once at boot (a wrong entry stops
 * the start, naming the entry and field). Disabled ones are known, so their deliveries already
 * created stay where they are, but they get no new ones and none are sent.
 */
@Injectable()
export class Destinations {
  readonly all: readonly Destination[];
  /** Read on every event (the fan-out) and every lease: computed once. */
  readonly enabled: readonly ActiveDestination[];
  private readonly enabledByName: ReadonlyMap<string, ActiveDestination>;

  constructor(settings: DestinationsSettings, worker: WorkerSettings, steps: StepsSettings) {
    this.all = settings.DESTINATIONS_FILE === undefined
      ? []
      : loadDestinationsFile(settings.DESTINATIONS_FILE, { maxAttempts: worker.MAX_ATTEMPTS, timeoutMs: steps.FORWARD_TIMEOUT_MS });
    const attemptMs = worker.ATTEMPT_TIMEOUT_SECONDS * 1000;
    const tooSlow = this.all.filter((d) => d.timeoutMs >= attemptMs).map((d) => d.name);
    // An attempt is aborted at ATTEMPT_TIMEOUT_SECONDS; a delivery must time out (and say why) first.
    if (tooSlow.length > 0) throw new Error(`DESTINATIONS_FILE: the timeout of ${tooSlow.join(', ')} must be below ATTEMPT_TIMEOUT_SECONDS (${attemptMs} ms)`);
    const enabled = this.all.filter((d) => d.enabled);
    this.enabled = enabled.map((d) => ({ config: d, target: forwardTarget(d.url, `destination ${d.name}`, d.timeoutMs, d.secrets) }));
    this.enabledByName = new Map(this.enabled.map((d) => [d.config.name, d]));
  }

  named(name: string): ActiveDestination | undefined {
    return this.enabledByName.get(name);
  }
}
