import { Injectable } from '@nestjs/common';
import { sql, type Transaction } from 'kysely';
import { Database } from '../database/database.js';
import type { DB } from '../database/tables.js';
import type { ClaimOutcome, ClaimRow } from './claim-row.js';
import { isUniqueViolation } from '../queue/database-errors.js';
import { claimArrays, claimBatch, insertOne, recordRedelivery } from './messages.sql.js';

@Injectable()
export class MessagesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Claims every row in one statement (one round trip, one commit). The messages_pkey unique
   * index arbitrates: a new key is inserted; a key already stored, or being inserted by a
   * concurrent transaction, takes the ON CONFLICT branch, which records the redelivery instead
   * of raising 23505. That keeps a retry storm from aborting transactions and (with adapter-pg)
   * from destroying a pooled connection per duplicate.
   *
   * Rows must be sorted by key: concurrent batches then lock rows in the same order and cannot
   * deadlock. The statement is compiled once (messages.sql.ts): a call only binds its arrays.
   */
  async claimBatch(rows: ClaimRow[]): Promise<ClaimOutcome> {
    const { rows: claimed } = await this.db.run(claimBatch.bind(claimArrays(rows)));
    return new Set(claimed.filter((r) => r.inserted).map((r) => r.message_id));
  }

  /**
   * The slow, literal path, used when a unique violation surfaces from claimBatch: each row is
   * a plain INSERT under its own savepoint in one transaction, so a 23505 marks that row a
   * duplicate without rolling back its siblings (or costing a pooled connection).
   */
  async claimOneByOne(rows: ClaimRow[]): Promise<ClaimOutcome> {
    return this.db.transaction().execute(async (tx) => {
      const inserted: ClaimOutcome = new Set();
      for (const row of rows) {
        if (await this.insertUnderSavepoint(tx, row)) inserted.add(row.key);
        else await recordRedelivery(tx, row.key, row.copies).execute();
      }
      return inserted;
    });
  }

  private async insertUnderSavepoint(tx: Transaction<DB>, row: ClaimRow): Promise<boolean> {
    await sql`SAVEPOINT claim_row`.execute(tx);
    try {
      await insertOne(tx, row).execute();
      await sql`RELEASE SAVEPOINT claim_row`.execute(tx);
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await sql`ROLLBACK TO SAVEPOINT claim_row`.execute(tx);
      return false;
    }
  }
}
