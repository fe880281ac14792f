/**
 * The tables a migration must treat as never idle, and why. A lock on one of them that conflicts
 * with ROW EXCLUSIVE (what every INSERT/UPDATE takes) stalls the path named here for as long as
 * the migration holds it. The lint's rules apply to these; every other table of schema.prisma is
 * in QUIET_TABLES with its reason, and a test fails for a table in neither list, so a new table
 * is classified on purpose.
 */
export const BUSY_TABLES: ReadonlyMap<string, string> = new Map([
  ['messages', 'every webhook request claims its events here (INSERT … ON CONFLICT) before the ack; every processed event updates its row'],
  ['deliveries', 'every status event (sent, delivered, read…) upserts its receipt'],
  ['message_steps', 'every completed step of every processed event inserts its recovery point'],
  ['destination_jobs', 'every event gets a job per matching destination; every forward leases and completes one'],
  ['destination_state', "every forward takes a token from its destination's bucket: few rows, but every forward writes one"],
  ['event_history', 'every failed attempt and replay appends a row: busiest exactly when a downstream is failing'],
]);

export const QUIET_TABLES: ReadonlyMap<string, string> = new Map([
  ['replay_requests', 'one row per operator bulk replay (POST /messages/replay): never on the webhook or worker path'],
]);

export function isBusy(table: string): boolean {
  return BUSY_TABLES.has(table);
}

/**
 * The table an index belongs to, for statements that name only the index (DROP INDEX, ALTER
 * INDEX): by the naming rule of docs/migrations.md, `<table>_<columns>_idx` (or `_pkey`, `_key`).
 */
export function busyTableOfIndex(index: string): string | undefined {
  return [...BUSY_TABLES.keys()].sort((a, b) => b.length - a.length).find((t) => index.startsWith(`${t}_`));
}
