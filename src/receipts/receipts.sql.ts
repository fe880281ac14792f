import { sql, type Kysely } from 'kysely';
import type { DB, DeliveryStatus } from '../database/tables.js';
import type { ReceiptUpdate } from '../sources/receipt-update.js';

/** Every statement on `deliveries`, the receipts: one record per outbound message and source (and gateway tenant). */

/**
 * Merges one update into its receipt (ReceiptsRepository.apply explains the merge). The
 * conflict target is the primary key by name, so it works on both sides of the migration that
 * widened it to (provider, tenant, wamid).
 */
export function mergeUpdate(update: ReceiptUpdate) {
  return sql<{ status: DeliveryStatus }>`
    WITH u AS (SELECT ${update.status}::delivery_status AS s, COALESCE(${update.at?.toISOString() ?? null}::timestamptz, now()) AS t)
    INSERT INTO deliveries AS d
      (wamid, provider, tenant, recipient, status, error, sent_at, delivered_at, read_at, played_at, failed_at)
    SELECT ${update.wamid}::text, ${update.source}::provider, ${update.tenant}::text, ${update.recipient}::text, s, ${update.error}::text,
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
}

/**
 * The receipts of one message id, in the provider enum's order (meta first), not the text's.
 * Source and tenant compare as text: a name that is no source matches nothing rather than failing.
 */
export function findReceipts(db: Kysely<DB>, wamid: string, provider?: string, tenant?: string) {
  return db
    .selectFrom('deliveries as d')
    .select([
      'd.wamid', 'd.provider', sql<string | null>`NULLIF(d.tenant, '')`.as('tenant'), 'd.recipient', 'd.status', 'd.error',
      'd.sent_at as sentAt', 'd.delivered_at as deliveredAt', 'd.read_at as readAt', 'd.played_at as playedAt', 'd.failed_at as failedAt',
      'd.created_at as createdAt', 'd.updated_at as updatedAt',
    ])
    .where('d.wamid', '=', wamid)
    .$if(provider !== undefined, (q) => q.where(sql`d.provider::text`, '=', provider))
    .$if(tenant !== undefined, (q) => q.where('d.tenant', '=', tenant!))
    .orderBy('d.provider')
    .orderBy('d.tenant');
}

/**
 * Deletes at most `limit` receipts that have not changed for `days` days (updated_at moves only
 * when a value does), through deliveries_updated_at_idx; SKIP LOCKED as the events' purge.
 */
export function purgeReceipts(days: number, limit: number) {
  return sql`
    WITH doomed AS MATERIALIZED (
      SELECT provider, tenant, wamid FROM deliveries
      WHERE updated_at < now() - make_interval(days => ${days}::int)
      LIMIT ${limit}::int
      FOR UPDATE SKIP LOCKED
    )
    DELETE FROM deliveries AS d USING doomed
    WHERE d.provider = doomed.provider AND d.tenant = doomed.tenant AND d.wamid = doomed.wamid`;
}
