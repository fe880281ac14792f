import { readMigrationFiles } from '../src/migrations/migration-files.js';
import { createTestDatabase, EMBEDDED, itOnPostgres, type TestDatabase } from './support/test-database.js';
import { metaText, uniqueId } from './support/payloads.js';
import { startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { postWebhook } from './support/test-app.js';

let db: TestDatabase;
let services: ServiceProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  // Both start at once on an empty database: the migration must run once, not twice. (On the
  // embedded database both share one session, so its advisory lock cannot order them: one by one.)
  const start = () => startServiceProcess({ DATABASE_URL: db.url });
  services = EMBEDDED ? [await start(), await start()] : await Promise.all([start(), start()]);
}, 60_000);
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await db?.drop();
});

/** Runs the tasks with at most `limit` in flight. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

describe('two service processes on one database', () => {
  itOnPostgres('migrated the shared database exactly once', async () => {
    const rows = await db.query('SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
    expect(rows.map((r) => r.migration_name)).toEqual((await readMigrationFiles()).map((f) => f.name));
  });

  it('accept each key exactly once in a redelivery storm spread over both', async () => {
    const ids = Array.from({ length: 300 }, () => uniqueId());
    const copies = 6;
    // Copies of one id are adjacent, alternating between the processes, so they race.
    const tasks = ids.flatMap((id) =>
      Array.from({ length: copies }, (_, c) => () => postWebhook(services[c % 2].baseUrl, metaText(id))),
    );
    const answers = await pool(tasks, 64);

    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    const accepted = answers.flatMap((a) => a.body.events.filter((e) => e.result === 'accepted').map((e) => e.id));
    expect(accepted.sort()).toEqual(ids.map((id) => `meta:msg:${id}`).sort());
    // Which process accepted each key: task i went to services[i % 2] (the index before filtering).
    const acceptedBy = answers.flatMap((a, i) => (a.body.accepted === 1 ? [i % 2] : []));
    expect(acceptedBy).toHaveLength(ids.length);
    expect(new Set(acceptedBy)).toEqual(new Set([0, 1]));

    const [stats] = await db.query(
      'SELECT count(*)::int AS rows, sum(duplicate_count)::int AS duplicates FROM messages WHERE message_id = ANY($1)',
      [ids.map((id) => `meta:msg:${id}`)],
    );
    expect(stats).toEqual({ rows: ids.length, duplicates: ids.length * (copies - 1) });
  }, 60_000);
});
