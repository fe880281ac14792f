// What upgrading across 20261201120000_trust_boundary costs, and what the hand-run alternative
// costs, on a throwaway database with N delivery rows (docs/deployment.md, "Upgrade notes"; figures in bench/README.md).
//   node bench/migration-upgrade.mjs [--rows 2000000] [--url postgresql://postgres@127.0.0.1:5432/postgres]
// Per run, in a database of its own (dropped after): the migrations before trust_boundary, N
// deliveries (and N/10 messages), then either the migration as shipped (one transaction, as the
// migrator sends it) or the safe sequence. Meanwhile a second session, as soon as the migration's
// lock on `messages` (or `deliveries`) is granted, inserts one row into that table: how long it
// waits is what a webhook claim (or a status event) would wait.
import { readFile, readdir } from 'node:fs/promises';
import { parse } from 'libpg-query';
import pg from 'pg';

const arg = (name, fallback) => { const i = process.argv.indexOf(`--${name}`); return i > 0 ? process.argv[i + 1] : fallback; };
const ROWS = Number(arg('rows', '2000000'));
const URL_ = arg('url', process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
const TARGET = '20261201120000_trust_boundary';
const script = await readFile(`deploy/upgrade/${TARGET}.sql`, 'utf8');
const ms = (t0) => Math.round(Number(process.hrtime.bigint() - t0) / 1e6);

async function connect(database) {
  const u = new URL(URL_);
  if (database) u.pathname = `/${database}`;
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  return c;
}

async function prepare(admin, name) {
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  const db = await connect(name);
  const names = (await readdir('prisma/migrations', { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  for (const n of names.filter((x) => x < TARGET)) await db.query(await readFile(`prisma/migrations/${n}/migration.sql`, 'utf8'));
  await db.query(`INSERT INTO deliveries (wamid, provider, status, sent_at, delivered_at)
    SELECT 'wamid.HBgL' || md5(i::text), 'meta', 'delivered', now(), now() FROM generate_series(1, $1) i`, [ROWS]);
  await db.query(`INSERT INTO messages (message_id, provider, kind, type, payload, status)
    SELECT 'meta:msg:' || md5(i::text), 'meta', 'message', 'text', '{}', 'processed' FROM generate_series(1, $1) i`, [Math.ceil(ROWS / 10)]);
  for (const q of ['VACUUM ANALYZE deliveries', 'VACUUM ANALYZE messages', 'CHECKPOINT']) await db.query(q);
  return db;
}

const INSERTS = {
  messages: (i) => [`INSERT INTO messages (message_id, provider, kind, type, payload) VALUES ($1, 'meta', 'message', 'text', '{}')`, [`probe:${i}`]],
  deliveries: (i) => [`INSERT INTO deliveries (wamid, provider, status) VALUES ($1, 'meta', 'sent')`, [`probe:${i}`]],
};

const BLOCKS_WRITES = ['ShareLock', 'ShareRowExclusiveLock', 'ExclusiveLock', 'AccessExclusiveLock'];

/** Runs `sql` on `db`; once it holds one of `modes` on `table`, times one insert there. */
async function timed(name, db, sql, table, modes = BLOCKS_WRITES) {
  const [watch, writer] = [await connect(name), await connect(name)];
  const pid = (await db.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  let stop = false;
  const probe = (async () => {
    while (!stop) {
      const { rows } = await watch.query(`SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
        WHERE l.pid = $1 AND l.granted AND c.relname = $2 AND l.mode = ANY($3)`, [pid, table, modes]);
      if (rows.length) {
        const t0 = process.hrtime.bigint();
        await writer.query(...INSERTS[table](Date.now()));
        return ms(t0);
      }
    }
    return null; // no such lock seen: held too briefly for this poll to catch
  })();
  const t0 = process.hrtime.bigint();
  await db.query(sql);
  const duration = ms(t0);
  stop = true;
  const wait = await probe;
  await Promise.all([watch.end(), writer.end()]);
  return { duration, wait };
}

async function main(admin) {
  const results = [];
  const shipped = `wdd_upgrade_shipped_${process.pid}`;
  let db = await prepare(admin, shipped);
  const sql = `SET lock_timeout = 2000;\n${await readFile(`prisma/migrations/${TARGET}/migration.sql`, 'utf8')}`;
  results.push({ run: 'shipped migration (one transaction)', ...(await timed(shipped, db, sql, 'messages')) });
  await db.end();
  await admin.query(`DROP DATABASE ${shipped}`);

  const safe = `wdd_upgrade_safe_${process.pid}`;
  db = await prepare(admin, safe);
  // The hand-run upgrade, statement by statement as psql sends it; its bookkeeping insert is
  // left out (these databases were migrated without the migrator, so have no _prisma_migrations).
  for (const { stmt, stmt_location: at = 0, stmt_len: len } of (await parse(script)).stmts) {
    const text = Buffer.from(script).subarray(at, len ? at + len : undefined).toString().replace(/^(\s*--[^\n]*\n)*\s*/, '');
    if (/_prisma_migrations/.test(text)) continue;
    if (stmt.VariableSetStmt) { await db.query(text); continue; }
    const table = /"messages"/.test(text) ? 'messages' : 'deliveries';
    const run = `safe: ${text.split('\n').find((l) => /ALTER TABLE|CREATE/.test(l)).trim().slice(0, 60)}`;
    results.push({ run, ...(await timed(safe, db, text, table, stmt.IndexStmt?.concurrent ? ['ShareUpdateExclusiveLock'] : BLOCKS_WRITES)) });
  }
  const { rows } = await db.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'deliveries' ORDER BY 1`);
  await db.end();
  await admin.query(`DROP DATABASE ${safe}`);

  console.log(`${ROWS} delivery rows, ${Math.ceil(ROWS / 10)} messages rows; PostgreSQL at ${new URL(URL_).host}`);
  for (const r of results) console.log(`${r.run.padEnd(72)} took ${String(r.duration).padStart(6)} ms; an insert into that table meanwhile took ${r.wait === null ? '- (lock held too briefly to catch)' : `${r.wait} ms`}`);
  console.log('deliveries indexes after the safe sequence:', rows.map((r) => r.indexdef).join('; '));
}

const admin = await connect();
try {
  await main(admin);
} finally {
  for (const kind of ['shipped', 'safe']) await admin.query(`DROP DATABASE IF EXISTS wdd_upgrade_${kind}_${process.pid} WITH (FORCE)`);
  await admin.end();
}
