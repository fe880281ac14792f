import { Injectable } from '@nestjs/common';
import type { InferResult } from 'kysely';
import { Database } from '../database/database.js';
import type { ReceiptStatus, ReceiptUpdate } from '../sources/receipt-update.js';
import type { SourceName } from '../sources/source-registry.js';
import { findReceipts, mergeUpdate } from './receipts.sql.js';

/** One outbound message's receipt, as its source reported it: the furthest status and when each was reached (a row of findReceipts). */
export type Receipt = InferResult<ReturnType<typeof findReceipts>>[number];

@Injectable()
export class ReceiptsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Merges one update into the record in one statement and returns the resulting status.
   * Sources redeliver and reorder statuses (read before delivered is common), so every
   * column merges commutatively: status by GREATEST over the enum's progress order (failed
   * last, so it is terminal), each time by LEAST (NULLs ignored: the earliest report wins),
   * error and recipient by the first non-null. Any set of updates, applied in any order any
   * number of times, so ends in the same record; the row lock ON CONFLICT takes makes
   * concurrent merges queue instead of losing one another.
   *
   * updated_at moves only when a value does, so a redelivered status leaves the row as it was.
   *
   * The conflict target is the primary key by name, so this works on both sides of the
   * migration that widens it to (provider, tenant, wamid): before it, a gateway's same id from
   * two tenants still shares one record, as it always did.
   */
  async apply(update: ReceiptUpdate): Promise<ReceiptStatus> {
    const [row] = (await mergeUpdate(update).execute(this.db)).rows;
    if (!row) throw new Error(`the receipt upsert for ${update.wamid} returned no row`);
    return row.status;
  }

  /** The records of one message id: one per source (and gateway tenant) that reported a status for it (usually one). */
  findAll(wamid: string, provider?: SourceName, tenant?: string): Promise<Receipt[]> {
    return findReceipts(this.db, wamid, provider, tenant).execute();
  }
}
