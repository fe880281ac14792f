import { Injectable } from '@nestjs/common';
import { StepsSettings } from '../../outbound/steps.settings.js';
import type { NormalizedEvent } from '../../sources/shared/normalized-event.js';
import { WorkerStep, type EventStep, type StepContext } from '../../inbox/event-step.js';
import { ForwardClient, forwardTarget, type ForwardTarget } from '../../outbound/forward-client.js';

/**
 * POSTs every event to FORWARD_URL: with this step alone the service is a deduplicating relay
 * in front of an existing bot backend. 2xx is success; anything else, or no answer within
 * FORWARD_TIMEOUT_MS, fails the attempt (retried with backoff, honouring Retry-After).
 * Errors never include the URL, which may carry credentials.
 */
@Injectable()
@WorkerStep({ name: 'forward', order: 20 })
export class ForwardStep implements EventStep {
  private readonly target: ForwardTarget | null;

  constructor(
    config: StepsSettings,
    private readonly client: ForwardClient,
  ) {
    this.target = config.FORWARD_URL === undefined
      ? null
      : forwardTarget(config.FORWARD_URL, 'FORWARD_URL', config.FORWARD_TIMEOUT_MS, config.FORWARD_SECRET);
  }

  appliesTo(): boolean {
    return this.target !== null;
  }

  run(event: NormalizedEvent, context: StepContext): Promise<{ status: number }> {
    return this.client.post(this.target!, event, context, context.signal);
  }
}
