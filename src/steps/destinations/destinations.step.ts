import { Injectable } from '@nestjs/common';
import { DestinationJobsRepository } from '../../destinations/destination-jobs.repository.js';
import { matchesFilter } from '../../destinations/destination-filter.js';
import { DestinationWorker } from '../../destinations/destination-worker.service.js';
import { Destinations } from '../../destinations/destinations.js';
import type { NormalizedEvent } from '../../events/normalized-event.js';
import { WorkerStep, type EventStep, type StepContext } from '../../worker/event-step.js';
import { toForwardedEvent } from '../forward/forward-request.js';

/**
 * The fan-out: one delivery per enabled destination whose filter matches the event, each then
 * sent, retried and dead-lettered on its own (DestinationWorker). Recorded like any step, so it
 * runs once per event: a destination added to the file later does not receive events that
 * were fanned out before (replay them to send them), and one removed keeps what it got.
 */
@Injectable()
@WorkerStep({ name: 'destinations', order: 30 })
export class DestinationsStep implements EventStep {
  constructor(
    private readonly destinations: Destinations,
    private readonly repository: DestinationJobsRepository,
    private readonly worker: DestinationWorker,
  ) {}

  appliesTo(): boolean {
    return this.destinations.enabled.length > 0;
  }

  async run(event: NormalizedEvent, context: StepContext): Promise<{ destinations: string[] }> {
    const view = toForwardedEvent(event, context);
    const names = this.destinations.enabled.filter((d) => matchesFilter(d.config.filter, view)).map((d) => d.config.name);
    await this.repository.create(event.key, names, context.replay);
    if (names.length > 0) this.worker.wakeForDueWork(); // this process's destination worker need not wait for the NOTIFY
    return { destinations: names };
  }
}
