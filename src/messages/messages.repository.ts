import { Injectable } from '@nestjs/common';
import { Prisma } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { ClaimOutcome, ClaimRow } from './claim-row.js';
import { isUniqueViolation } from '../queue/database-errors.js';

type TransactionClient = Prisma.TransactionClient;

@Injectable()
export class MessagesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Claims every row in one statement (one round trip, one commit). The messages_pkey unique
   * index arbitrates: a new key is inserted; a key already stored, or being inserted by a
   * concurrent transaction, takes the ON CONFLICT branch, which records the redelivery instead
   * of raising 23505. That keeps a retry storm from aborting transactions and (with adapter-pg)
   * from destroying a pooled connection per duplicate.
   *
   * Rows must be sorted by key: concurrent batches then lock rows in the same order and cannot
   * deadlock. `xmax = 0` holds exactly for rows this statement inserted.
   */
  async claimBatch(rows: ClaimRow[]): Promise<ClaimOutcome> {
    const claimed = await this.prisma.driverQuery<{ message_id: string; inserted: boolean }>`
      INSERT INTO messages AS m
        (message_id, provider, kind, type, sender, user_id, tenant, provider_timestamp, from_me, authenticated, payload, duplicate_count, last_duplicate_at)
      SELECT k, p::provider, kd::event_kind, t, s, u, tn, ts::timestamptz, fm, au, pl::jsonb, c - 1, CASE WHEN c > 1 THEN now() END
      FROM unnest(
        ${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.provider)}::text[], ${rows.map((r) => r.kind)}::text[],
        ${rows.map((r) => r.type)}::text[], ${rows.map((r) => r.sender)}::text[],
        ${rows.map((r) => r.userId)}::text[], ${rows.map((r) => r.tenant)}::text[],
        ${rows.map((r) => r.providerTimestamp?.toISOString() ?? null)}::text[], ${rows.map((r) => r.fromMe)}::bool[],
        ${rows.map((r) => r.authenticated)}::bool[], ${rows.map((r) => r.payload)}::text[], ${rows.map((r) => r.copies)}::int[]
      ) AS batch(k, p, kd, t, s, u, tn, ts, fm, au, pl, c)
      ON CONFLICT (message_id) DO UPDATE
        SET duplicate_count = m.duplicate_count + EXCLUDED.duplicate_count + 1,
            last_duplicate_at = now()
      RETURNING message_id, (xmax = 0) AS inserted`;
    return new Set(claimed.filter((r) => r.inserted).map((r) => r.message_id));
  }

  /**
   * The slow, literal path, used when a unique violation surfaces from claimBatch: each row is
   * a plain INSERT under its own savepoint in one transaction, so a 23505 marks that row a
   * duplicate without rolling back its siblings (or costing a pooled connection).
   */
  async claimOneByOne(rows: ClaimRow[]): Promise<ClaimOutcome> {
    return this.prisma.$transaction(
      async (tx) => {
        const inserted: ClaimOutcome = new Set();
        for (const row of rows) {
          if (await this.insertUnderSavepoint(tx, row)) inserted.add(row.key);
          else await this.recordRedelivery(tx, row.key, row.copies);
        }
        return inserted;
      },
      { timeout: 60_000 },
    );
  }

  private async insertUnderSavepoint(tx: TransactionClient, row: ClaimRow): Promise<boolean> {
    await tx.$executeRawUnsafe('SAVEPOINT claim_row');
    try {
      await tx.$executeRaw`
        INSERT INTO messages (message_id, provider, kind, type, sender, user_id, tenant, provider_timestamp, from_me, authenticated, payload, duplicate_count, last_duplicate_at)
        VALUES (${row.key}, ${row.provider}::provider, ${row.kind}::event_kind, ${row.type}, ${row.sender}, ${row.userId}, ${row.tenant},
                ${row.providerTimestamp?.toISOString() ?? null}::timestamptz, ${row.fromMe}, ${row.authenticated}, ${row.payload}::jsonb, ${row.copies - 1},
                CASE WHEN ${row.copies}::int > 1 THEN now() END)`;
      await tx.$executeRawUnsafe('RELEASE SAVEPOINT claim_row');
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT claim_row');
      return false;
    }
  }

  private async recordRedelivery(tx: TransactionClient, key: string, copies: number): Promise<void> {
    await tx.$executeRaw`
      UPDATE messages SET duplicate_count = duplicate_count + ${copies}, last_duplicate_at = now()
      WHERE message_id = ${key}`;
  }
}
