import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';
import type { BulkReplayResult } from './message-views.js';

export interface ReplayRequestRow {
  request_hash: string;
  result: BulkReplayResult | null;
  created_at: Date;
}

/** replay_requests: the Idempotency-Keys of bulk replays, each claimed before its replay acts. */
@Injectable()
export class ReplayRequestsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * True when this call inserted the key, i.e. owns the replay. Its own statement, committed at
   * once: a concurrent claim of the same key waits only for this insert, then loses.
   */
  async claim(key: string, requestHash: string): Promise<boolean> {
    const rows = await this.prisma.$queryRaw<{ key: string }[]>`
      INSERT INTO replay_requests (key, request_hash) VALUES (${key}, ${requestHash})
      ON CONFLICT (key) DO NOTHING RETURNING key`;
    return rows.length === 1;
  }

  async find(key: string): Promise<ReplayRequestRow | null> {
    const [row] = await this.prisma.$queryRaw<ReplayRequestRow[]>`
      SELECT request_hash, result, created_at FROM replay_requests WHERE key = ${key}`;
    return row ?? null;
  }

  async complete(key: string, result: BulkReplayResult): Promise<void> {
    await this.prisma.$executeRaw`UPDATE replay_requests SET result = ${JSON.stringify(result)}::jsonb WHERE key = ${key}`;
  }

  /** Frees the key of a replay that failed before it finished, so the client may retry with it. */
  async release(key: string): Promise<void> {
    await this.prisma.$executeRaw`DELETE FROM replay_requests WHERE key = ${key} AND result IS NULL`;
  }
}
