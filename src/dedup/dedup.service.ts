import { Injectable, Logger } from '@nestjs/common';
import { StoreUnavailableError } from '../common/domain-errors.js';
import { AppConfig } from '../config/app-config.js';
import type { NormalizedEvent } from '../events/normalized-event.js';
import type { ClaimOutcome, ClaimRow } from '../messages/claim-row.js';
import { MessagesRepository } from '../messages/messages.repository.js';
import { isUniqueViolation, sqlState } from '../messages/database-errors.js';
import { GroupCommit, FlushFailure } from '../common/group-commit.js';
import type { ClaimVerdict, EventClaim } from './claim-result.js';
import { mergeClaimRows, toClaimRow } from './claim-rows.js';

const MAX_EVENTS_PER_FLUSH = 5000;
const RETRYABLE_STATES = new Set(['40P01', '40001']); // deadlock, serialization failure

/**
 * Decides, through the database's unique constraint on message_id, which events are new.
 * An event is "accepted" only once its row is committed; anything else is a duplicate or an
 * error the provider must retry (StoreUnavailableError → 503).
 */
@Injectable()
export class DedupService {
  private readonly logger = new Logger(DedupService.name);
  private readonly batcher: GroupCommit<ClaimRow, ClaimVerdict>;

  constructor(
    private readonly messages: MessagesRepository,
    config: AppConfig,
  ) {
    // Half the pool for claims leaves connections for health checks and other work.
    const flushes = Math.max(1, Math.floor(config.DB_POOL_SIZE / 2));
    this.batcher = new GroupCommit((requests) => this.claimRequests(requests), flushes, MAX_EVENTS_PER_FLUSH);
  }

  async claim(events: NormalizedEvent[]): Promise<EventClaim[]> {
    const rows = events.map(toClaimRow);
    let verdicts: ClaimVerdict[];
    try {
      verdicts = await this.batcher.submit(rows);
    } catch (error) {
      this.logger.error(`claim failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new StoreUnavailableError('events could not be stored; retry later', { cause: error });
    }
    return events.map((event, i) => ({ id: event.key, result: verdicts[i] }));
  }

  /** One flush: every event of the queued requests, each key claimed once. */
  private async claimRequests(requests: ClaimRow[][]): Promise<Array<ClaimVerdict[] | FlushFailure>> {
    let inserted: ClaimOutcome;
    try {
      inserted = await this.store(mergeClaimRows(requests.flat()));
    } catch (error) {
      // The server rejected the statement (it answered with a SQLSTATE): claim each request
      // on its own so one unstorable delivery cannot fail the deliveries it was batched with.
      if (requests.length === 1 || sqlState(error) === undefined) throw error;
      return Promise.all(
        requests.map((rows) => this.claimRequests([rows]).then(([result]) => result, (cause) => new FlushFailure(cause))),
      );
    }
    const seen = new Set<string>();
    return requests.map((rows) =>
      rows.map(({ key }) => {
        const first = !seen.has(key);
        seen.add(key);
        return first && inserted.has(key) ? 'accepted' : 'duplicate';
      }),
    );
  }

  private async store(rows: ClaimRow[], attempt = 1): Promise<ClaimOutcome> {
    try {
      return await this.messages.claimBatch(rows);
    } catch (error) {
      if (isUniqueViolation(error)) {
        this.logger.warn('unique violation during a batch claim; claiming its events one by one');
        return this.messages.claimOneByOne(rows);
      }
      if (attempt < 3 && RETRYABLE_STATES.has(sqlState(error) ?? '')) return this.store(rows, attempt + 1);
      throw error;
    }
  }
}
