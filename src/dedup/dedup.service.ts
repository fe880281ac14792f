import { Injectable, Logger } from '@nestjs/common';
import { OverloadedError, StoreUnavailableError } from '../common/domain-errors.js';
import { FlushFailure, GroupCommit, QueueFullError, RetryAlone } from '../queue/group-commit.js';
import { DatabaseSettings } from '../prisma/database.settings.js';
import { IngestSettings } from '../sources/ingest.settings.js';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import type { ClaimOutcome, ClaimRow } from '../messages/claim-row.js';
import { isDataError, isUniqueViolation, withConflictRetries } from '../queue/database-errors.js';
import { MessagesRepository } from '../messages/messages.repository.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { ClaimVerdict, EventClaim } from './claim-result.js';
import { chunked, type ChunkLimits } from './claim-chunks.js';
import { mergeClaimRows, toClaimRow } from './claim-rows.js';

const MAX_EVENTS_PER_FLUSH = 5000;
const CLAIM_STATEMENTS_IN_FLIGHT = 2;
/** Payload characters per statement: a few near-limit bodies must not become one statement of hundreds of MB. */
const MAX_PAYLOAD_PER_FLUSH = 8 * 1024 * 1024;
/**
 * One chunk of a large webhook request: one Meta batch (up to 1,000 updates) stays one chunk, so it is
 * stored all or nothing as before; a chunk never exceeds the smallest claim queue allowed
 * (CLAIM_QUEUE_MAX_EVENTS ≥ 1,000, CLAIM_QUEUE_MAX_MB ≥ 8), so no webhook request is too big to queue.
 */
const CHUNK_LIMITS: ChunkLimits<ClaimRow> = { maxItems: 1000, maxSize: MAX_PAYLOAD_PER_FLUSH / 2, sizeOf: (row) => row.payload.length };

/**
 * Decides, through the database's unique constraint on message_id, which events are new.
 * An event is "accepted" only once its row is committed; anything else is a duplicate or an
 * error the source must retry (StoreUnavailableError and OverloadedError → 503).
 */
@Injectable()
export class DedupService {
  private readonly logger = new Logger(DedupService.name);
  private readonly batcher: GroupCommit<ClaimRow, ClaimVerdict>;
  private shedSinceLog = 0;
  private lastShedLogAt = 0;

  constructor(
    private readonly messages: MessagesRepository,
    database: DatabaseSettings,
    ingest: IngestSettings,
    private readonly metrics: MetricsService,
  ) {
    this.batcher = new GroupCommit((requests) => this.claimRequests(requests), {
      // At most two claim statements at a time: whatever arrives meanwhile waits and goes into the
      // next, so under load statements grow instead of multiplying (fewer commits, less CPU on both
      // sides; one, two and five measured in bench/README.md). Two rather than one, so a statement
      // stuck on a row lock does not hold every webhook request of the process. Never more than half the pool.
      maxConcurrentFlushes: Math.max(1, Math.min(CLAIM_STATEMENTS_IN_FLIGHT, Math.floor(database.DB_POOL_SIZE / 2))),
      maxItemsPerFlush: MAX_EVENTS_PER_FLUSH,
      sizeOf: (row) => row.payload.length,
      maxSizePerFlush: MAX_PAYLOAD_PER_FLUSH,
      maxQueuedItems: ingest.CLAIM_QUEUE_MAX_EVENTS,
      maxQueuedSize: ingest.CLAIM_QUEUE_MAX_MB * 1024 * 1024,
    });
  }

  /**
   * A webhook request of many events is claimed a chunk at a time, each chunk one statement that waits
   * for the one before: the statement stays bounded however large the request, and the chunks
   * take turns with other webhook requests in the queue. Resolves only once every chunk is committed;
   * if one fails, the chunks before it stay stored and the source's retry finds them as duplicates.
   */
  async claim(events: NormalizedEvent[]): Promise<EventClaim[]> {
    const rows = events.map(toClaimRow);
    const verdicts: ClaimVerdict[] = [];
    for (const chunk of chunked(rows, CHUNK_LIMITS)) {
      try {
        verdicts.push(...(await this.batcher.submit(chunk)));
      } catch (error) {
        if (error instanceof QueueFullError) throw this.shed(error);
        const stored = verdicts.length > 0 ? ` (${verdicts.length} of the webhook request's ${rows.length} events were claimed before)` : '';
        this.logger.error(`claim failed${stored}: ${error instanceof Error ? error.message : String(error)}`);
        throw new StoreUnavailableError('events could not be stored; retry later', { cause: error });
      }
    }
    return events.map((event, i) => ({ id: event.key, result: verdicts[i] }));
  }

  /** One flush: every event of the queued requests, each key claimed once. */
  private async claimRequests(requests: ClaimRow[][]): Promise<Array<ClaimVerdict[] | FlushFailure>> {
    let inserted: ClaimOutcome;
    try {
      inserted = await this.store(mergeClaimRows(requests.flat()));
    } catch (error) {
      // The server refused the data (classes 22, 23): one request may carry the value it refused,
      // so each is tried again on its own, through the same limit. Anything else (a timeout, too
      // many connections, a lost connection) fails the flush as a whole: splitting it would only
      // multiply statements while the database struggles.
      if (requests.length > 1 && isDataError(error)) return requests.map(() => new RetryAlone(error));
      throw error;
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

  private store(rows: ClaimRow[]): Promise<ClaimOutcome> {
    return withConflictRetries(async () => {
      try {
        return await this.messages.claimBatch(rows);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        this.logger.warn('unique violation during a batch claim; claiming its events one by one');
        return this.messages.claimOneByOne(rows);
      }
    });
  }

  /** Refuses a webhook request at once; logs at most one line a second, however many are shed. */
  private shed(error: QueueFullError): OverloadedError {
    this.metrics.claimShed();
    this.shedSinceLog++;
    const now = Date.now();
    if (now - this.lastShedLogAt >= 1000) {
      this.logger.warn(`overloaded: ${this.shedSinceLog} webhook request(s) answered 503 since the last report; ${error.message}`);
      this.shedSinceLog = 0;
      this.lastShedLogAt = now;
    }
    return new OverloadedError('too many webhook requests are waiting to be stored; retry later');
  }
}
