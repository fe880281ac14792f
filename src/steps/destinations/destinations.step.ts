import { Injectable } from '@nestjs/common';
import { DestinationJobsRepository } from '../../destinations/destination-jobs.repository.js';
import { matchesFilter } from '../../destinations/destination-filter.js';
import { DestinationWorker } from '../../destinations/destination-worker.service.js';
import { Destinations } from '../../destinations/destinations.js';
import { FAN_OUT_STEP } from '../../destinations/fan-out.js';
import { referencedMessageKey } from '../../sources/message-references.js';
import type { NormalizedEvent } from '../../sources/shared/normalized-event.js';
import { WorkerStep, type EventStep, type StepContext } from '../../inbox/event-step.js';
import { toForwardedEvent } from '../../outbound/forward-request.js';

/**
 * The fan-out: one delivery per enabled destination whose filter matches the event, each then
 * sent, retried and dead-lettered on its own (DestinationWorker). Recorded like any step, so it
 * runs once per event: a destination added to the file later does not receive events that
 * were fanned out before (replay them to send them), and one removed keeps what it got.
 */
@Injectable()
@WorkerStep({ name: FAN_OUT_STEP, order: 30 })
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
    const matching = this.destinations.enabled.filter((d) => matchesFilter(d.config.filter, view));
    const inOrder = { conversation: conversationOf(event), after: referencedMessageKey(event) };
    const deliveries = matching.map(({ config }) => ({ destination: config.name, ...(config.ordering === 'conversation' ? inOrder : { conversation: null, after: null }) }));
    await this.repository.create(event.key, deliveries, context.replay, { at: event.providerTimestamp ?? context.receivedAt, receivedAt: context.receivedAt });
    if (deliveries.length > 0) this.worker.wakeForDueWork(); // this process's destination worker; others find them at their poll
    return { destinations: deliveries.map((d) => d.destination) };
  }
}

/**
 * The conversation an event belongs to: its tenant (business number, session, instance) and
 * the other party (a status is about the recipient, so it joins that user's conversation), so a
 * stuck head holds only its own tenant's conversation. None without another party: such an
 * event is delivered in no particular order. A `|` or `\` in the tenant is escaped, so tenant
 * `a|b` with user `c` is not tenant `a` with user `b|c`; keys of other tenants are unchanged.
 */
export function conversationOf(event: NormalizedEvent): string | null {
  const party = event.sender ?? event.userId;
  const tenant = (event.tenant ?? '').replace(/[\\|]/g, '\\$&');
  return party === null ? null : `${tenant}|${party}`.slice(0, 300);
}
