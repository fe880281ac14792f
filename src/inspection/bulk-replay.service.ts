import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, InvalidQueryError } from '../common/domain-errors.js';
import { Destinations } from '../destinations/destinations.js';
import { checkIdempotencyKey, requestHash, toBulkReplayRequest, type BulkReplayParams, type BulkReplayRequest } from './bulk-replay-request.js';
import { BulkReplayRepository } from './bulk-replay.repository.js';
import type { BulkReplayResult } from './message-views.js';
import type { PageCursor } from './page-cursor.js';
import { ReplayRequestsRepository } from './replay-requests.repository.js';

/** Rows per statement: each batch holds its row locks only for a moment, workers keep going. */
export const REPLAY_BATCH_SIZE = 500;

export interface BulkReplayOutcome {
  result: BulkReplayResult;
  /** The answer is an earlier call's with the same Idempotency-Key; this call changed nothing. */
  repeated: boolean;
}

/** POST /messages/replay: every dead or failed event (or delivery) matching the filters back to work, in batches. */
@Injectable()
export class BulkReplayService {
  private readonly logger = new Logger('Inspection');

  constructor(
    private readonly rows: BulkReplayRepository,
    private readonly requests: ReplayRequestsRepository,
    private readonly destinations: Destinations,
  ) {}

  async replay(params: BulkReplayParams, idempotencyKey: string | undefined): Promise<BulkReplayOutcome> {
    const request = toBulkReplayRequest(params);
    if (idempotencyKey !== undefined) checkIdempotencyKey(idempotencyKey);
    // A misspelt name would match no delivery and answer 0, as if nothing had failed.
    if (request.destination !== null && !this.destinations.all.some((d) => d.name === request.destination)) {
      throw new InvalidQueryError(`destination=${request.destination} is not in DESTINATIONS_FILE`);
    }
    const answer = (replayed: number, dryRun: boolean): BulkReplayResult => ({
      replayed, dryRun, target: request.destination === null ? 'events' : 'deliveries', destination: request.destination,
    });
    // A dry run changes nothing, so there is nothing to make idempotent: its key is not stored.
    if (params.dryRun === true) return { result: answer(await this.rows.count(request), true), repeated: false };
    if (idempotencyKey === undefined) return { result: answer(await this.run(request), false), repeated: false };

    const earlier = await this.claim(idempotencyKey, requestHash(request));
    if (earlier !== 'claimed') return { result: earlier, repeated: true };
    try {
      const result = answer(await this.run(request), false);
      await this.requests.complete(idempotencyKey, result);
      return { result, repeated: false };
    } catch (error) {
      // Batches already done stay done; a retry with the key finds those rows no longer dead or failed.
      await this.requests.release(idempotencyKey).catch(() => undefined);
      throw error;
    }
  }

  private async run(request: BulkReplayRequest): Promise<number> {
    let replayed = 0;
    let after: PageCursor | null = null;
    for (;;) {
      const batch = await this.rows.replayBatch(request, after, REPLAY_BATCH_SIZE);
      replayed += batch.replayed;
      if (batch.replayed > 0) await this.rows.wakeWorkers(request);
      if (batch.replayed < REPLAY_BATCH_SIZE || batch.last === null) break;
      after = batch.last;
    }
    const what = request.destination === null ? 'events' : `deliveries to ${request.destination}`;
    this.logger.log(`bulk replay${request.fromStart ? ' from the start' : ''}: ${replayed} ${what} back to work`);
    return replayed;
  }

  /**
   * Inserts the key, or answers what its first call did. The first call's row may vanish between
   * the two statements (it failed and released the key): then claiming is tried again.
   */
  private async claim(key: string, hash: string): Promise<BulkReplayResult | 'claimed'> {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.requests.claim(key, hash)) return 'claimed';
      const earlier = await this.requests.find(key);
      if (earlier === null) continue;
      if (earlier.request_hash !== hash) {
        throw new ConflictError(`Idempotency-Key ${key} was already used for a replay with other filters; use a new key for this one`);
      }
      if (earlier.result !== null) return earlier.result;
      throw new ConflictError(`the replay with Idempotency-Key ${key} (started ${earlier.created_at.toISOString()}) is still in progress; ask again when it has finished`);
    }
    throw new ConflictError(`Idempotency-Key ${key} is being claimed and released by other calls; try again`);
  }
}
