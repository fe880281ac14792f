import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestDatabase } from './test-database.js';

/** Two destinations for Meta events; crm (one attempt only) dies at once while it is down. */
export function twoDestinationsFile(url: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'wdd-bulk-replay-')), 'destinations.yaml');
  writeFileSync(path, `
destinations:
  - name: archive
    url: ${url}/archive
    secret: archive-secret-0001
    filter: { source: [meta] }
  - name: crm
    url: ${url}/crm
    secret: crm-secret-0001
    filter: { source: [meta] }
    maxAttempts: 1
`);
  return path;
}

export interface StoredEvent {
  key: string;
  status: 'dead' | 'failed' | 'processed';
  tenant: string;
  provider?: string;
  daysAgo?: number;
}

/**
 * Events written straight into the inbox, as if they had failed long ago. Generic events with
 * an empty payload: no destination takes them and no step fails on them once replayed. A failed
 * one is due tomorrow, so the worker leaves it alone until the test replays it.
 */
export async function insertEvents(db: TestDatabase, events: StoredEvent[]): Promise<void> {
  await db.query(
    `INSERT INTO messages (message_id, provider, kind, type, tenant, payload, status, received_at, processed_at, due_at)
     SELECT e.key, e.provider::provider, 'message', 'text', e.tenant, '{}', e.status::message_status, now() - e.days * interval '1 day',
       CASE WHEN e.status = 'processed' THEN now() END, now() + interval '1 day'
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[]) AS e(key, status, tenant, provider, days)`,
    [
      events.map((e) => e.key), events.map((e) => e.status), events.map((e) => e.tenant),
      events.map((e) => e.provider ?? 'generic'), events.map((e) => e.daysAgo ?? 0),
    ],
  );
}

/** `count` dead events of one tenant, keys `<tenant>:<n>`. */
export async function insertDeadEvents(db: TestDatabase, tenant: string, count: number): Promise<void> {
  await db.query(
    `INSERT INTO messages (message_id, provider, kind, type, tenant, payload, status, received_at)
     SELECT $1 || ':' || g, 'generic', 'message', 'text', $1, '{}', 'dead', now() - interval '1 hour' + g * interval '1 millisecond'
     FROM generate_series(1, $2::int) g`,
    [tenant, count],
  );
}

/** Events of a tenant by status, e.g. { dead: 3, processed: 2 }. */
export async function statusesOf(db: TestDatabase, tenant: string): Promise<Record<string, number>> {
  const rows = await db.query('SELECT status::text AS status, count(*)::int AS n FROM messages WHERE tenant = $1 GROUP BY status', [tenant]);
  return Object.fromEntries(rows.map((r) => [r.status as string, r.n as number]));
}
