// What running the work queues' statements costs per call, client side: before, their text sent with
// pool.query (PrismaService.driverStatement; driverQuery also joined a tagged template's strings per
// call); now, compiled once and bound per call (PreparedStatement), run by the Kysely `Database` over
// the same pool. Without DATABASE_URL, only the building; with it, also a round trip per call (a renew
// and a release of leases nobody holds: same statements, no rows). Run `npx nest build` first:
//   node bench/queue-sql.mjs [DATABASE_URL=postgresql://…]
import { Kysely, PostgresDialect } from 'kysely';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { discardingPool } from '../dist/database/discarding-pool.js';
import { INBOX, recordSteps } from '../dist/messages/inbox.sql.js';

const positional = (strings) => strings.slice(1).reduce((text, s, i) => `${text}$${i + 1}${s}`, strings[0]);
const token = '00000000-0000-0000-0000-000000000001';
const leases = (n) => Array.from({ length: n }, (_, i) => ({ key: `meta:msg:wamid.${i}`, leaseToken: token }));
const records = (n) => leases(n).map((l) => ({ ...l, step: 'forward', result: '{"status":200}', attempt: 1, finish: true }));
const recordArrays = (rs) => ({
  keys: rs.map((r) => r.key), tokens: rs.map((r) => r.leaseToken), steps: rs.map((r) => r.step),
  results: rs.map((r) => r.result), attempts: rs.map((r) => r.attempt), finish: rs.map((r) => r.finish),
});
const recordStrings = recordSteps.bind(recordArrays([])).sql.split(/\$\d+/);
const renewText = INBOX.renew.bind({}).sql;

const ways = {
  'record  template (before)': (rs) => { const a = recordArrays(rs); return { text: positional(recordStrings), values: Object.values(a) }; },
  'record  bound (now)': (rs) => recordSteps.bind(recordArrays(rs)),
  'renew   text + values (before)': (rs) => ({ text: renewText, values: [rs.map((l) => l.key), rs.map((l) => l.leaseToken), 30] }),
  'renew   bound (now)': (rs) => INBOX.renew.bind({ message_id: rs.map((l) => l.key), tokens: rs.map((l) => l.leaseToken), leaseSeconds: 30 }),
};
for (const size of [1, 100]) {
  const rs = records(size);
  const n = size === 1 ? 200_000 : 20_000;
  for (const [name, build] of Object.entries(ways)) {
    for (let i = 0; i < n / 10; i++) build(rs);
    const start = performance.now();
    for (let i = 0; i < n; i++) build(rs);
    console.log(`${String(size).padStart(4)} row(s)  ${name.padEnd(32)} ${(((performance.now() - start) * 1000) / n).toFixed(2).padStart(8)} µs/call`);
  }
}

const url = process.env.DATABASE_URL;
if (url) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const db = new Kysely({ dialect: new PostgresDialect({ pool: discardingPool(pool) }) });
  const held = { message_id: ['nobody:1'], tokens: [token] };
  const runs = {
    'pool.query (before)': () => pool.query(renewText, [held.message_id, held.tokens, 30]),
    'Database.executeQuery (now)': () => db.executeQuery(INBOX.renew.bind({ ...held, leaseSeconds: 30 })),
  };
  const n = 5_000;
  for (let round = 0; round < 2; round++) {
    for (const [name, run] of Object.entries(runs)) {
      for (let i = 0; i < 500; i++) await run();
      const [start, cpu] = [performance.now(), process.cpuUsage()];
      for (let i = 0; i < n; i++) await run();
      const { user, system } = process.cpuUsage(cpu);
      const wall = ((performance.now() - start) * 1000) / n;
      console.log(`round trip, renew  ${name.padEnd(28)} ${wall.toFixed(1).padStart(7)} µs/call, client CPU ${((user + system) / n).toFixed(1).padStart(6)} µs/call`);
    }
  }
  await pool.end();
}
