import { Injectable } from '@nestjs/common';
import type { DeliveryStatus, DeliveryUpdate } from '../sources/receipt-update.js';
import type { ProviderName } from '../events/normalized-event.js';
import { PrismaService } from '../prisma/prisma.service.js';

/** One outbound message's delivery record, as its source reported it: the furthest status and when each was reached. */
export interface DeliveryRecord {
  wamid: string;
  provider: ProviderName;
  /** The gateway session or instance whose record it is; null for sources whose ids are global (and records from before tenants). */
  tenant: string | null;
  recipient: string | null;
  status: DeliveryStatus;
  error: string | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  playedAt: Date | null;
  failedAt: Date | null;
  createdAt: Date;
  /** When the record last changed; a repeated status does not count. */
  updatedAt: Date;
}

@Injectable()
export class DeliveriesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Merges one update into the record in one statement and returns the resulting status.
   * Providers redeliver and reorder statuses (read before delivered is common), so every
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
  async apply(update: DeliveryUpdate): Promise<DeliveryStatus> {
    const [row] = await this.prisma.$queryRaw<{ status: DeliveryStatus }[]>`
      WITH u AS (SELECT ${update.status}::delivery_status AS s, COALESCE(${update.at?.toISOString() ?? null}::timestamptz, now()) AS t)
      INSERT INTO deliveries AS d
        (wamid, provider, tenant, recipient, status, error, sent_at, delivered_at, read_at, played_at, failed_at)
      SELECT ${update.wamid}::text, ${update.provider}::provider, ${update.tenant}::text, ${update.recipient}::text, s, ${update.error}::text,
             CASE s WHEN 'sent' THEN t END, CASE s WHEN 'delivered' THEN t END, CASE s WHEN 'read' THEN t END,
             CASE s WHEN 'played' THEN t END, CASE s WHEN 'failed' THEN t END
      FROM u
      ON CONFLICT ON CONSTRAINT deliveries_pkey DO UPDATE SET
        status = GREATEST(d.status, EXCLUDED.status),
        sent_at = LEAST(d.sent_at, EXCLUDED.sent_at),
        delivered_at = LEAST(d.delivered_at, EXCLUDED.delivered_at),
        read_at = LEAST(d.read_at, EXCLUDED.read_at),
        played_at = LEAST(d.played_at, EXCLUDED.played_at),
        failed_at = LEAST(d.failed_at, EXCLUDED.failed_at),
        error = COALESCE(d.error, EXCLUDED.error),
        recipient = COALESCE(d.recipient, EXCLUDED.recipient),
        updated_at = CASE
          WHEN EXCLUDED.status > d.status
            OR EXCLUDED.sent_at < COALESCE(d.sent_at, 'infinity')
            OR EXCLUDED.delivered_at < COALESCE(d.delivered_at, 'infinity')
            OR EXCLUDED.read_at < COALESCE(d.read_at, 'infinity')
            OR EXCLUDED.played_at < COALESCE(d.played_at, 'infinity')
            OR EXCLUDED.failed_at < COALESCE(d.failed_at, 'infinity')
            OR (d.error IS NULL AND EXCLUDED.error IS NOT NULL)
            OR (d.recipient IS NULL AND EXCLUDED.recipient IS NOT NULL)
          THEN now() ELSE d.updated_at END
      RETURNING status::text AS status`;
    if (!row) throw new Error(`the delivery upsert for ${update.wamid} returned no row`);
    return row.status;
  }

  /** The records of one message id: one per source (and gateway tenant) that reported a status for it (usually one). */
  findAll(wamid: string, provider?: ProviderName, tenant?: string): Promise<DeliveryRecord[]> {
    // Raw SQL: the provider enum's value 360dialog is not an identifier, so Prisma's client names it otherwise.
    return this.prisma.$queryRaw<DeliveryRecord[]>`
      SELECT wamid, provider::text AS provider, NULLIF(tenant, '') AS tenant, recipient, status::text AS status, error, sent_at AS "sentAt",
        delivered_at AS "deliveredAt", read_at AS "readAt", played_at AS "playedAt", failed_at AS "failedAt",
        created_at AS "createdAt", updated_at AS "updatedAt"
      FROM deliveries d WHERE wamid = ${wamid} AND (${provider ?? null}::text IS NULL OR d.provider::text = ${provider ?? null}::text)
        AND (${tenant ?? null}::text IS NULL OR d.tenant = ${tenant ?? null}::text)
      ORDER BY d.provider, d.tenant`; // the enum's order (meta first), not the text's
  }
}
