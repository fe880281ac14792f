import { Injectable } from '@nestjs/common';
import type { Kysely, Selectable } from 'kysely';
import { Database } from '../database/database.js';
import type { DB, ReplayRequests } from '../database/tables.js';
import type { BulkReplayResult } from './message-views.js';

/** replay_requests' statements: the Idempotency-Keys of bulk replays, each claimed before its replay acts. */
export const replayRequestsSql = {
  claim: (db: Kysely<DB>, key: string, requestHash: string) =>
    db.insertInto('replay_requests').values({ key, request_hash: requestHash }).onConflict((oc) => oc.column('key').doNothing()).returning('key'),
  find: (db: Kysely<DB>, key: string) => db.selectFrom('replay_requests').select(['request_hash', 'result', 'created_at']).where('key', '=', key),
  complete: (db: Kysely<DB>, key: string, result: BulkReplayResult) =>
    db.updateTable('replay_requests').set({ result: JSON.stringify(result) }).where('key', '=', key),
  release: (db: Kysely<DB>, key: string) => db.deleteFrom('replay_requests').where('key', '=', key).where('result', 'is', null),
};

/** A stored key: its result is what complete() wrote. */
export type ReplayRequestRow = Pick<Selectable<ReplayRequests>, 'request_hash' | 'created_at'> & { result: BulkReplayResult | null };

@Injectable()
export class ReplayRequestsRepository {
  constructor(private readonly db: Database) {}

  /**
   * True when this call inserted the key, i.e. owns the replay. Its own statement, committed at
   * once: a concurrent claim of the same key waits only for this insert, then loses.
   */
  async claim(key: string, requestHash: string): Promise<boolean> {
    return (await replayRequestsSql.claim(this.db, key, requestHash).execute()).length === 1;
  }

  async find(key: string): Promise<ReplayRequestRow | null> {
    const row = await replayRequestsSql.find(this.db, key).executeTakeFirst();
    // The column holds only what complete() wrote: a BulkReplayResult.
    return row ? { ...row, result: row.result as unknown as BulkReplayResult | null } : null;
  }

  async complete(key: string, result: BulkReplayResult): Promise<void> {
    await replayRequestsSql.complete(this.db, key, result).execute();
  }

  /** Frees the key of a replay that failed before it finished, so the client may retry with it. */
  async release(key: string): Promise<void> {
    await replayRequestsSql.release(this.db, key).execute();
  }
}
