#!/usr/bin/env node
// What one PostgreSQL primary takes of the claim, with the service left out: the claim statement
// of MessagesRepository.claimBatch, sent from this process over several connections in batches
// of N rows, against the real schema (prisma/migrations, NOTIFY trigger included). Self-contained:
// it creates a scratch database, applies the migrations, measures, prints a table and drops it.
//   node bench/claim-capacity.mjs [--batches 1,10,100] [--connections 1,4,16] [--duration 10] [--modes new,dup,lifecycle]
//     [--prefill 1000000] [--notify on|off] [--max-other 25] [--json]
// See bench/README.md ("Claim capacity").
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import pg from 'pg';
import { createDatabase, dropDatabase, withClient, cpuMeter } from './procs.mjs';
import { numberList, parseOptions } from './options.mjs';
import { pct, round, table, writeResults } from './report.mjs';

const MIGRATIONS = new URL('../prisma/migrations/', import.meta.url);
const APP = 'wdd-claim-capacity';
const DEFAULTS = { batches: '1,10,100', connections: '1,4,16', duration: 10, warmup: 2, modes: 'new', payload: 512, prefill: 1_000_000,
  'database-url': process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', notify: 'on', 'max-other': Infinity };

// The claim, as MessagesRepository.claimBatch sends it (one statement, one commit, N rows).
const CLAIM = `
  INSERT INTO messages AS m
    (message_id, provider, kind, type, sender, provider_timestamp, from_me, payload, duplicate_count, last_duplicate_at)
  SELECT k, p::provider, kd::event_kind, t, s, ts::timestamptz, fm, pl::jsonb, c - 1, CASE WHEN c > 1 THEN now() END
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bool[], $8::text[], $9::int[])
    AS batch(k, p, kd, t, s, ts, fm, pl, c)
  ON CONFLICT (message_id) DO UPDATE
    SET duplicate_count = m.duplicate_count + EXCLUDED.duplicate_count + 1,
        last_duplicate_at = now()
  RETURNING message_id, (xmax = 0) AS inserted`;

// The worker's two statements per event (WorkQueueRepository.lease and .record): lease a batch
// of due events, then record one completed step and the processed status in one statement.
const LEASE = `
  WITH due AS (
    SELECT message_id, (status = 'processing') AS expired, (status = 'processing' AND attempts >= $2) AS exhausted
    FROM messages
    WHERE status IN ('received', 'processing', 'failed') AND due_at <= now()
    ORDER BY due_at
    LIMIT $1
    FOR UPDATE SKIP LOCKED
  )
  UPDATE messages AS m SET
    status = (CASE WHEN due.exhausted THEN 'dead' ELSE 'processing' END)::message_status,
    attempts = CASE WHEN due.exhausted THEN m.attempts ELSE m.attempts + 1 END,
    last_error = CASE WHEN due.expired
      THEN 'lease expired: ' || coalesce(m.leased_by, 'a worker') || ' did not finish attempt ' || m.attempts
      ELSE m.last_error END,
    lease_token = CASE WHEN due.exhausted THEN NULL ELSE gen_random_uuid() END,
    leased_by = CASE WHEN due.exhausted THEN NULL ELSE $3 END,
    due_at = now() + $4 * interval '1 second'
  FROM due
  WHERE m.message_id = due.message_id
  RETURNING m.message_id, m.provider::text, m.kind::text, m.type, m.sender, m.provider_timestamp, m.from_me, m.payload,
    m.received_at, m.attempts, m.status::text, m.lease_token::text,
    (SELECT coalesce(jsonb_object_agg(s.step, s.result), '{}'::jsonb) FROM message_steps s WHERE s.message_id = m.message_id) AS completed`;
const RECORD = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::int[], $6::bool[])
      AS i(message_id, token, step, result, attempt, finish)
  ), owned AS (
    SELECT i.* FROM input i JOIN messages m ON m.message_id = i.message_id AND m.lease_token = i.token
    WHERE m.status = 'processing'
    ORDER BY i.message_id
    FOR UPDATE OF m
  ), recorded AS (
    INSERT INTO message_steps (message_id, step, result, attempt)
    SELECT message_id, step, result::jsonb, attempt FROM owned WHERE step IS NOT NULL
    ON CONFLICT (message_id, step) DO NOTHING
  ), finished AS (
    UPDATE messages m SET status = 'processed', processed_at = now(), lease_token = NULL, leased_by = NULL
    FROM owned o WHERE m.message_id = o.message_id AND o.finish
  )
  SELECT message_id FROM owned`;

const MODES = {
  new: 'claim of new keys (every row inserted)',
  dup: 'claim of keys already stored (every row takes ON CONFLICT DO UPDATE: a redelivery)',
  lifecycle: 'claim + lease + record (one step, then processed): what ingest and processing write per event',
};

function parseArgs(argv) {
  const o = parseOptions(argv, DEFAULTS);
  o.batchList = numberList(o.batches);
  o.connectionList = numberList(o.connections);
  o.modeList = String(o.modes).split(',');
  for (const m of o.modeList) if (!MODES[m]) throw new Error(`unknown mode ${m} (known: ${Object.keys(MODES).join(', ')})`);
  for (const k of ['duration', 'warmup', 'payload', 'prefill', 'max-other']) o[k] = Number(o[k]);
  for (const v of [...o.batchList, ...o.connectionList, o.duration, o.payload]) if (!(v > 0)) throw new Error(`bad number in options: ${v}`);
  if (!(o['max-other'] >= 0)) throw new Error('--max-other must be a number >= 0');
  if (!(o.warmup >= 0) || !(o.prefill >= 0)) throw new Error('--warmup and --prefill must be >= 0');
  if (o.modeList.includes('dup') && o.prefill < 1000) throw new Error('mode dup needs --prefill of at least 1000 (the stored keys it redelivers)');
  if (!['on', 'off'].includes(o.notify)) throw new Error('--notify must be on or off');
  return o;
}

// ---- rows shaped like the service's: Meta text messages, random wamids (keys arrive in no order) ----
const wamid = () => `wamid.HBgL${randomBytes(36).toString('base64')}`;
function payloadOf(id, size) {
  const item = {
    field: 'messages', entryId: '102290129340398', metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
    contact: { profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' },
    message: { from: '16505551234', id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: '' } }, errors: null,
  };
  item.message.text.body = 'Does it come in another color? '.padEnd(Math.max(0, size - JSON.stringify(item).length), 'x');
  return JSON.stringify(item);
}
/** Claim parameters for `keys` (sorted, as the service sorts them). */
function claimParams(keys, size) {
  keys.sort();
  const n = keys.length, now = new Date().toISOString();
  return [keys.map((k) => `meta:msg:${k}`), Array(n).fill('meta'), Array(n).fill('message'), Array(n).fill('text'), Array(n).fill('16505551234'),
    Array(n).fill(now), Array(n).fill(false), keys.map((k) => payloadOf(k, size)), Array(n).fill(1)];
}

// ---- database-side figures ----
async function dbCounters(c, dbName) {
  const { rows: [r] } = await c.query(`
    SELECT w.wal_records::bigint AS wal_records, w.wal_fpi::bigint AS wal_fpi, w.wal_bytes::bigint AS wal_bytes, w.wal_sync::bigint AS wal_sync,
           d.xact_commit::bigint AS commits
    FROM pg_stat_wal w, pg_stat_database d WHERE d.datname = $1`, [dbName]);
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)]));
}
/** CPU time of the whole machine, busy (ms, all cores): what is neither postgres nor this process is someone else's. */
function machineBusyMs() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  return (f.reduce((a, b) => a + b, 0) - f[3] - f[4]) * 10; // minus idle and iowait; USER_HZ = 100
}
/** Samples what the bench's backends wait on (pg_stat_activity), every 50 ms. */
function waitSampler(url) {
  const c = new pg.Client({ connectionString: url });
  const counts = new Map();
  let samples = 0, running = true;
  const done = (async () => {
    await c.connect();
    while (running) {
      const { rows } = await c.query(`SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS w FROM pg_stat_activity
        WHERE application_name = $1 AND state = 'active' AND pid <> pg_backend_pid()`, [APP]);
      samples++;
      for (const r of rows) counts.set(r.w, (counts.get(r.w) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 50));
    }
    await c.end();
  })();
  return async () => {
    running = false;
    await done;
    const total = [...counts.values()].reduce((s, n) => s + n, 0);
    return { samples, activeAvg: round(total / Math.max(1, samples), 1),
      top: [...counts].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([w, n]) => `${w} ${Math.round((100 * n) / Math.max(1, total))}%`) };
  };
}

async function applyMigrations(url, notify) {
  await withClient(url, async (c) => {
    for (const d of readdirSync(MIGRATIONS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
      await c.query(readFileSync(new URL(`${d}/migration.sql`, MIGRATIONS), 'utf8'));
    }
    if (notify === 'off') await c.query('DROP TRIGGER messages_notify_inbox ON messages');
  });
}

/**
 * The history a long-running service has: `n` processed events with random keys (in no order, as
 * wamids arrive), so the primary key index is larger than shared_buffers and inserts land on
 * leaf pages all over it. Generated in the database, 100,000 rows per statement.
 */
async function prefill(c, n, payloadBytes, log) {
  const payload = payloadOf('wamid.prefill', payloadBytes), seed = randomBytes(8).toString('hex'), t0 = performance.now();
  for (let i = 0; i < n; i += 100_000) {
    await c.query(`
      INSERT INTO messages (message_id, provider, kind, type, sender, provider_timestamp, from_me, payload, status, attempts, received_at, processed_at, due_at)
      SELECT 'meta:msg:wamid.HBgL' || encode(sha256(($1 || g)::bytea), 'base64'), 'meta', 'message', 'text', '1650555' || lpad((g % 10000)::text, 4, '0'),
        t, false, $2::jsonb, 'processed', 1, t, t, t
      FROM generate_series($3::int, $4::int) AS g, LATERAL (SELECT now() - ($5::int - g) * interval '10 ms' AS t) AS at`,
    [seed, payload, i, Math.min(n, i + 100_000) - 1, n]);
  }
  await c.query('VACUUM ANALYZE messages');
  const { rows: [r] } = await c.query(`SELECT pg_table_size('messages') AS heap, pg_indexes_size('messages') AS idx,
    (SELECT count(*)::int FROM pg_indexes WHERE tablename = 'messages') AS indexes`);
  const onDisk = { rows: n, indexes: r.indexes, heapBytesPerRow: Math.round(Number(r.heap) / n), indexBytesPerRow: Math.round(Number(r.idx) / n) };
  log(`prefilled ${n} processed events in ${((performance.now() - t0) / 1000).toFixed(0)} s: heap ~${onDisk.heapBytesPerRow} B/row, indexes ~${onDisk.indexBytesPerRow} B/row`);
  return onDisk;
}
/** Keys `dup` redelivers: a random sample of the stored ones. */
async function storedKeys(c, n) {
  const { rows } = await c.query(`SELECT substr(message_id, 10) AS k FROM messages TABLESAMPLE SYSTEM (10) LIMIT $1`, [n]);
  return rows.map((r) => r.k);
}

/** One connection's loop until `until()`: returns rows, statements and per-statement latencies (ms). */
async function loop(c, mode, B, o, stored, until) {
  let rows = 0, statements = 0;
  const lat = [];
  while (!until()) {
    const t0 = performance.now();
    if (mode === 'new') {
      const r = await c.query(CLAIM, claimParams(Array.from({ length: B }, wamid), o.payload));
      rows += r.rows.filter((x) => x.inserted).length;
      statements++;
    } else if (mode === 'dup') {
      const keys = Array.from({ length: B }, () => stored[Math.floor(Math.random() * stored.length)]);
      const r = await c.query(CLAIM, claimParams([...new Set(keys)], o.payload));
      rows += r.rows.length;
      statements++;
    } else {
      await c.query(CLAIM, claimParams(Array.from({ length: B }, wamid), o.payload));
      const leased = (await c.query(LEASE, [B, 10, `${APP}-${c.processID}`, 60])).rows;
      if (leased.length) {
        const owned = await c.query(RECORD, [leased.map((r) => r.message_id), leased.map((r) => r.lease_token), leased.map(() => 'forward'),
          leased.map(() => '{"status":200}'), leased.map((r) => r.attempts), leased.map(() => true)]);
        rows += owned.rows.length;
      }
      statements += 3;
    }
    lat.push(performance.now() - t0);
  }
  return { rows, statements, lat };
}

const connectAll = (url, n) => Promise.all(Array.from({ length: n }, async () => {
  const c = new pg.Client({ connectionString: url, application_name: APP });
  await c.connect();
  return c;
}));
/** Ends the clients and waits until their backends are gone: an exiting backend flushes its statistics. */
async function endAll(clients, adminUrl) {
  await Promise.all(clients.map((c) => c.end()));
  await withClient(adminUrl, async (c) => {
    for (let i = 0; i < 100; i++) {
      const { rows: [r] } = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [APP]);
      if (r.n === 0) return;
      await new Promise((res) => setTimeout(res, 20));
    }
  });
}

async function runOne(o, db, mode, B, C, stored, log) {
  const admin = o['database-url'];
  // Each run starts right after a checkpoint, so every one pays the same full-page writes (needs superuser).
  await withClient(db.url, (c) => c.query('CHECKPOINT').catch(() => {}));
  if (o.warmup > 0) {
    const warm = await connectAll(db.url, C);
    const end = performance.now() + o.warmup * 1000;
    await Promise.all(warm.map((c) => loop(c, mode, B, o, stored, () => performance.now() >= end)));
    await endAll(warm, admin);
  }
  const clients = await connectAll(db.url, C);
  const before = await withClient(admin, (c) => dbCounters(c, db.name));
  const waits = waitSampler(admin);
  const cpu = cpuMeter({}), busy0 = machineBusyMs();
  const t0 = performance.now(), end = t0 + o.duration * 1000;
  let per, seconds, load;
  try {
    per = await Promise.all(clients.map((c) => loop(c, mode, B, o, stored, () => performance.now() >= end)));
    seconds = (performance.now() - t0) / 1000;
    load = cpu();
    load.other = Math.max(0, Math.round((100 * (machineBusyMs() - busy0)) / (seconds * 1000)) - load.postgres - load.bench);
  } finally {
    await endAll(clients, admin); // before reading the counters: exiting backends flush their statistics
  }
  const w = await waits();
  {
    const after = await withClient(admin, (c) => dbCounters(c, db.name));
    const size = await withClient(db.url, async (c) => {
      const { rows: [r] } = await c.query(`SELECT count(*)::bigint AS n, pg_table_size('messages') AS heap, pg_indexes_size('messages') AS idx FROM messages`);
      return { rows: Number(r.n), heapBytesPerRow: Math.round(Number(r.heap) / Math.max(1, Number(r.n))), indexBytesPerRow: Math.round(Number(r.idx) / Math.max(1, Number(r.n))) };
    });
    const rows = per.reduce((s, p) => s + p.rows, 0), statements = per.reduce((s, p) => s + p.statements, 0);
    const lat = Float64Array.from(per.flatMap((p) => p.lat)).sort();
    const d = Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - before[k]]));
    const r = {
      mode, batch: B, connections: C, seconds: round(seconds, 2), rows, rowsPerSec: Math.round(rows / seconds), statementsPerSec: Math.round(statements / seconds),
      latencyMs: { p50: round(pct(lat, 50), 2), p99: round(pct(lat, 99), 2) }, cpu: { postgres: load.postgres, bench: load.bench, other: load.other }, loadavg1: round(os.loadavg()[0], 2),
      commitsPerSec: Math.round(d.commits / seconds), walSyncsPerSec: Math.round(d.wal_sync / seconds),
      walBytesPerRow: Math.round(d.wal_bytes / Math.max(1, rows)), walRecordsPerRow: round(d.wal_records / Math.max(1, rows), 1),
      fpiPerRow: round(d.wal_fpi / Math.max(1, rows), 2), rowsPerWalSync: round(rows / Math.max(1, d.wal_sync), 1), waits: w, table: size,
    };
    log(`${mode} B=${B} C=${C}: ${r.rowsPerSec} rows/s, ${r.statementsPerSec} statements/s, p50 ${r.latencyMs.p50} ms, postgres ${load.postgres} % CPU, bench ${load.bench} %, other processes ${load.other} %; waits ${w.top.join(', ')}`);
    return r;
  }
}

/**
 * A shared machine: with --max-other P, a run during which other processes used more than P % of
 * a core is repeated (after a pause, up to 3 more times); the quietest run is kept.
 */
async function quietRun(o, db, mode, B, C, stored, log) {
  let best;
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt > 0) {
      log(`${mode} B=${B} C=${C}: other processes used ${best.cpu.other} % of a core (> ${o['max-other']}); again in 20 s`);
      await new Promise((r) => setTimeout(r, 20_000));
    }
    const r = await runOne(o, db, mode, B, C, stored, log);
    if (!best || r.cpu.other < best.cpu.other) best = r;
    if (best.cpu.other <= o['max-other']) break;
  }
  return best;
}

async function main(argv) {
  let o;
  try {
    o = parseArgs(argv);
  } catch (error) {
    console.error(`claim-capacity: ${error.message}\nusage: node bench/claim-capacity.mjs [--batches 1,10,100] [--connections 1,4,16] [--duration 10] ` +
      `[--modes ${Object.keys(MODES).join(',')}] [--prefill 1000000] [--notify on|off] [--max-other 25] [--json]`);
    return 2;
  }
  const log = (m) => console.error(`[claim-capacity] ${m}`);
  const db = await createDatabase(o['database-url']);
  const results = [];
  let settings, prefilled;
  try {
    await applyMigrations(db.url, o.notify);
    settings = await withClient(db.url, async (c) => {
      const { rows } = await c.query(`SELECT name, setting FROM pg_settings WHERE name IN
        ('server_version', 'synchronous_commit', 'shared_buffers', 'wal_level', 'max_wal_size', 'commit_delay', 'full_page_writes', 'wal_compression')`);
      return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
    });
    log(`database ${db.name}; PostgreSQL ${settings.server_version}, synchronous_commit=${settings.synchronous_commit}; NOTIFY trigger ${o.notify}; ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(2)}`);
    if (o.prefill > 0) prefilled = await withClient(db.url, (c) => prefill(c, o.prefill, o.payload, log));
    for (const mode of o.modeList) {
      await withClient(db.url, async (c) => {
        // lifecycle leases what is due: earlier modes' claims would be a backlog (and make `record` slow, see README)
        if (mode === 'lifecycle') await c.query(`UPDATE messages SET status = 'processed', processed_at = now() WHERE status <> 'processed'`);
        await c.query('VACUUM ANALYZE messages'); // current statistics, as autovacuum keeps them
      });
      const stored = mode === 'dup' ? await withClient(db.url, (c) => storedKeys(c, 100_000)) : [];
      for (const B of o.batchList) for (const C of o.connectionList) results.push(await quietRun(o, db, mode, B, C, stored, log));
    }
  } finally {
    await dropDatabase(o['database-url'], db.name);
  }
  for (const mode of o.modeList) {
    console.log(`\n${mode}: ${MODES[mode]}${mode === 'lifecycle' ? ' (rows = events fully processed; statements = 3 per loop)' : ''}`);
    console.log(table(
      ['batch', 'conns', 'rows/s', 'stmts/s', 'p50 ms', 'p99 ms', 'pg CPU %', 'bench CPU %', 'other CPU %', 'commits/s', 'WAL syncs/s', 'rows/sync', 'WAL B/row', 'WAL rec/row', 'FPI/row', 'top waits'],
      results.filter((r) => r.mode === mode).map((r) => [r.batch, r.connections, r.rowsPerSec, r.statementsPerSec, r.latencyMs.p50, r.latencyMs.p99, r.cpu.postgres, r.cpu.bench, r.cpu.other,
        r.commitsPerSec, r.walSyncsPerSec, r.rowsPerWalSync, r.walBytesPerRow, r.walRecordsPerRow, r.fpiPerRow, r.waits.top.slice(0, 3).join(', ')]),
    ));
  }
  if (prefilled) console.log(`\non disk after the prefill (${prefilled.rows} processed events, no dead rows): messages heap ~${prefilled.heapBytesPerRow} B/row, its ${prefilled.indexes} indexes ~${prefilled.indexBytesPerRow} B/row`);
  console.log(`PostgreSQL ${settings?.server_version}: ${JSON.stringify(settings)}; NOTIFY trigger ${o.notify}; payload ~${o.payload} B; CPU % = % of one core (${os.cpus().length} here)`);
  if (o.json) console.log(`results written to ${writeResults('claim-capacity', { ...o, prefilled }, results)}`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (error) => { console.error(error); process.exitCode = 1; });
}
