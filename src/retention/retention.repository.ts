import { Injectable } from '@nestjs/common';
import type { QueryResult } from 'kysely';
import { Database } from '../database/database.js';
import { purgeReceipts } from '../receipts/receipts.sql.js';
import { purgeFinished } from '../messages/messages.sql.js';

/** The statuses the purge deletes; anything else is still work to do. */
export type FinishedStatus = 'processed' | 'dead';

/**
 * The purge: each call deletes at most `limit` rows older than `days` days by the database's
 * clock, and returns how many it deleted. One statement, one short transaction, written in its
 * table's SQL module (messages.sql.ts, receipts.sql.ts).
 *
 * Rows are chosen with FOR UPDATE SKIP LOCKED: any number of processes may purge at once,
 * each takes rows the others have not locked (no row is deleted twice, no purger waits on
 * another), and a row that a worker, a redelivery or a replay is writing at that moment is
 * left for a later run. FOR UPDATE also rechecks the conditions against a row's newest
 * version, so a row that was redelivered, replayed or leased since the statement began is not
 * deleted. No ORDER BY: any order deletes the same rows, and without one the scan stops as
 * soon as it has a batch.
 */
@Injectable()
export class RetentionRepository {
  constructor(private readonly db: Database) {}

  /**
   * Deletes finished events of one status (processed, dead) that nothing has touched for `days`
   * days; their recorded steps go with them (message_steps cascades). The two statuses have
   * their own retention (dead events are kept longer, to be replayed), hence one status per
   * call. Unfinished events are never deleted, however old.
   *
   * An event's age counts from the LAST of:
   * - received_at: its first copy's arrival;
   * - last_duplicate_at: its latest redelivery. The key must outlive every retry of the
   *   provider, and a redelivery after the purge would be accepted as new and processed again;
   *   a source that is still redelivering (a broken acknowledgement path?) keeps its keys;
   * - processed_at: when it was processed, which for a retried or replayed event may be days
   *   after its arrival, so an operator still finds it RETENTION_DAYS after it last changed;
   * - due_at: set at every lease and failure (to the lease's expiry or the retry time that
   *   would have followed), so never before the event's last attempt. It is the only trace of
   *   when a dead event died, as nothing else records that.
   * GREATEST ignores NULLs. As that age is never older than received_at, `received_at < cutoff`
   * is implied; stating it makes the candidates a range of messages_status_received_at_idx (one
   * status, then received_at), so a batch reads about as many rows as it deletes instead of
   * scanning the table. No new index is needed.
   */
  async purgeFinishedEvents(status: FinishedStatus, days: number, limit: number, deadDays = days): Promise<number> {
    return affected(await purgeFinished(status, days, limit, deadDays).execute(this.db));
  }

  /**
   * Deletes receipts that have not changed for `days` days (updated_at moves only when
   * a value does), found through deliveries_updated_at_idx. A status reported after that makes
   * a new record holding that status alone (the merge in ReceiptsRepository accepts any order).
   */
  async purgeReceipts(days: number, limit: number): Promise<number> {
    return affected(await purgeReceipts(days, limit).execute(this.db));
  }
}

function affected(result: QueryResult<unknown>): number {
  return Number(result.numAffectedRows ?? 0);
}
