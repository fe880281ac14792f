import { Injectable } from '@nestjs/common';
import pLimit from 'p-limit';
import { ReceiptsRepository } from '../../receipts/receipts.repository.js';
import { receiptUpdateOf, type ReceiptStatus } from '../../sources/receipt-update.js';
import type { NormalizedEvent } from '../../sources/shared/normalized-event.js';
import { WorkerStep, type EventStep } from '../../inbox/event-step.js';

export interface ReceiptsStepResult {
  wamid: string;
  /** The record's status after this event: later than the event's own when a later one came first. */
  status: ReceiptStatus;
}

/**
 * Keeps the receipt of each outbound message, per source. The merge is idempotent, so
 * a retry after a crash between the write and the step's record changes nothing. Only events
 * whose webhook request was authenticated may move a record: a record only moves forward (failed is
 * terminal), so one forged status would be permanent.
 */
@Injectable()
@WorkerStep({ name: 'delivery-status', order: 10 })
export class ReceiptsStep implements EventStep {
  // Statuses often outnumber messages; a few connections for them keep the pool free for acknowledgements.
  private readonly writes = pLimit(2);

  constructor(private readonly receipts: ReceiptsRepository) {}

  appliesTo(event: NormalizedEvent): boolean {
    return event.authenticated && receiptUpdateOf(event) !== null;
  }

  async run(event: NormalizedEvent): Promise<ReceiptsStepResult | undefined> {
    const update = receiptUpdateOf(event);
    // Only reached when appliesTo said no, i.e. never by the worker.
    if (update === null) return undefined;
    return { wamid: update.wamid, status: await this.writes(() => this.receipts.apply(update)) };
  }
}
