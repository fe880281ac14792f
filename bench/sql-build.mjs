// What building the claim's statement costs per call, before any I/O: the template the claim used
// before Kysely (positional text + 12 parameter arrays), the same statement built and compiled by
// Kysely's query builder on every call, and the statement compiled once and only bound per call
// (what MessagesRepository.claimBatch does). Run `npx nest build` first: node bench/sql-build.mjs
import { sql } from 'kysely';
import { performance } from 'node:perf_hooks';
import { compileOnly } from '../dist/database/compile-only.js';
import { claimArrays, claimBatch } from '../dist/messages/messages.sql.js';

const db = compileOnly();
// What PrismaService.driverQuery did with a tagged template's strings (removed with it).
const positional = (strings) => strings.slice(1).reduce((text, s, i) => `${text}$${i + 1}${s}`, strings[0]);
const row = (i) => ({
  key: `meta:msg:wamid.${i}`, provider: 'meta', kind: 'message', type: 'text', sender: '16505551234', userId: null, tenant: '1234',
  providerTimestamp: new Date(), fromMe: false, authenticated: true, payload: '{"a":1}', copies: 1,
});

function template(rows) {
  const tag = (strings, ...values) => ({ text: positional(strings), values });
  return tag`INSERT INTO messages AS m (message_id) SELECT k FROM unnest(${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.provider)}::text[],
    ${rows.map((r) => r.kind)}::text[], ${rows.map((r) => r.type)}::text[], ${rows.map((r) => r.sender)}::text[], ${rows.map((r) => r.userId)}::text[],
    ${rows.map((r) => r.tenant)}::text[], ${rows.map((r) => r.providerTimestamp?.toISOString() ?? null)}::text[], ${rows.map((r) => r.fromMe)}::bool[],
    ${rows.map((r) => r.authenticated)}::bool[], ${rows.map((r) => r.payload)}::text[], ${rows.map((r) => r.copies)}::int[]) AS batch(k)`;
}

const builder = (rows) => {
  const a = claimArrays(rows);
  return db.insertInto('messages').columns(['message_id', 'provider', 'kind', 'type', 'sender', 'user_id', 'tenant', 'provider_timestamp', 'from_me', 'authenticated', 'payload', 'duplicate_count', 'last_duplicate_at'])
    .expression(db.selectFrom(sql`unnest(${a.keys}::text[], ${a.providers}::text[], ${a.kinds}::text[], ${a.types}::text[], ${a.senders}::text[], ${a.userIds}::text[],
      ${a.tenants}::text[], ${a.timestamps}::text[], ${a.fromMe}::bool[], ${a.authenticated}::bool[], ${a.payloads}::text[], ${a.copies}::int[])`.as(sql`batch(k, p, kd, t, s, u, tn, ts, fm, au, pl, c)`))
      .select([sql`k`.as('message_id'), sql`p::provider`.as('provider'), sql`kd::event_kind`.as('kind'), sql`t`.as('type'), sql`s`.as('sender'), sql`u`.as('user_id'),
        sql`tn`.as('tenant'), sql`ts::timestamptz`.as('provider_timestamp'), sql`fm`.as('from_me'), sql`au`.as('authenticated'), sql`pl::jsonb`.as('payload'),
        sql`c - 1`.as('duplicate_count'), sql`CASE WHEN c > 1 THEN now() END`.as('last_duplicate_at')]))
    .onConflict((oc) => oc.column('message_id').doUpdateSet({ duplicate_count: sql`messages.duplicate_count + excluded.duplicate_count + 1`, last_duplicate_at: sql`now()` }))
    .returning(['message_id', sql`(xmax = 0)`.as('inserted')]).compile();
};

const ways = { 'template (before)': template, 'builder + compile per call': builder, 'compiled once, bound per call (now)': (rows) => claimBatch.bind(claimArrays(rows)) };
for (const size of [1, 1000]) {
  const rows = Array.from({ length: size }, (_, i) => row(i));
  const n = size === 1 ? 100_000 : 2_000;
  for (const [name, build] of Object.entries(ways)) {
    for (let i = 0; i < n / 10; i++) build(rows); // warm up
    const start = performance.now();
    for (let i = 0; i < n; i++) build(rows);
    const us = ((performance.now() - start) * 1000) / n;
    console.log(`${String(size).padStart(4)} row(s)  ${name.padEnd(38)} ${us.toFixed(2).padStart(8)} µs/call`);
  }
}

// Kysely's own cost of running a compiled statement (connection provider, result handling), with a
// driver that answers at once: what it adds on top of pg's pool.query per call.
const bound = claimBatch.bind(claimArrays([row(0)]));
for (let i = 0; i < 10_000; i++) await db.executeQuery(bound);
const start = performance.now();
for (let i = 0; i < 100_000; i++) await db.executeQuery(bound);
console.log(`executeQuery overhead (no I/O)                 ${(((performance.now() - start) * 1000) / 100_000).toFixed(2).padStart(8)} µs/call`);
