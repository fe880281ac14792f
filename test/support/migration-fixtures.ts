import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULT_MIGRATIONS_DIR } from '../../src/migrations/migration-files.js';
import { applyMigrations, type MigrationLog } from '../../src/migrations/migrator.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/** application_name of the migrator's session, to find it in pg_stat_activity. */
export const MIGRATOR = 'whatsapp-webhook-dedup:migrate';

/** A temporary migrations folder: the committed migrations (unless `committed` is false) plus these. */
export async function migrationsWith(extra: Record<string, string>, committed = true): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wdd-migrations-'));
  if (committed) await cp(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  for (const [name, sql] of Object.entries(extra)) {
    await mkdir(join(dir, name));
    await writeFile(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

/** A logger tests can wait on: `seen(/retrying/)` resolves when such a line has been logged. */
export class RecordingLog implements MigrationLog {
  readonly lines: string[] = [];
  private waiters: Array<{ pattern: RegExp; count: number; resolve: () => void }> = [];

  log(message: string): void {
    this.record(message);
  }

  warn(message: string): void {
    this.record(message);
  }

  count(pattern: RegExp): number {
    return this.lines.filter((l) => pattern.test(l)).length;
  }

  seen(pattern: RegExp, count = 1): Promise<void> {
    if (this.count(pattern) >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ pattern, count, resolve }));
  }

  private record(message: string): void {
    this.lines.push(message);
    this.waiters = this.waiters.filter((w) => (this.count(w.pattern) >= w.count ? (w.resolve(), false) : true));
  }
}

/** Sessions of their own (a blocker, a claimer), closed by `closeAll`. */
export class Sessions {
  private readonly clients: pg.Client[] = [];

  constructor(private readonly url: string) {}

  async open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', () => undefined);
    await client.connect();
    this.clients.push(client);
    return client;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.clients.map((c) => c.end().catch(() => undefined)));
  }
}

/** Fails with a message instead of hanging until jest's timeout. */
export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still not done after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The claim's statement shape (src/messages/messages.repository.ts), for one event. */
export function claim(client: pg.Client, key: string): Promise<pg.QueryResult> {
  return client.query(
    `INSERT INTO messages AS m (message_id, provider, kind, type, payload) VALUES ($1, 'meta', 'message', 'text', '{}')
     ON CONFLICT (message_id) DO UPDATE SET duplicate_count = m.duplicate_count + 1, last_duplicate_at = now()
     RETURNING message_id, (xmax = 0) AS inserted`,
    [key],
  );
}

/** Lock requests on `messages` not granted yet, by application_name ('' for test sessions). */
export const WAITING_ON_MESSAGES = `
  SELECT a.pid, a.application_name AS app, l.mode
  FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.relation = 'messages'::regclass AND NOT l.granted AND a.datname = current_database()`;

/** Who holds Prisma's migration lock (72707369) right now. */
export const MIGRATION_LOCK_HOLDER = `
  SELECT a.pid, a.application_name AS app FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'advisory' AND l.objid = 72707369 AND l.granted
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`; // advisory locks are per database: other test files migrate theirs meanwhile

/** Jest hooks: before each test a new database with the committed migrations applied, and its sessions; both gone after. */
export function useMigratedDatabase(): { db: TestDatabase; sessions: Sessions } {
  const ctx = {} as { db: TestDatabase; sessions: Sessions };
  beforeEach(async () => {
    ctx.db = await createTestDatabase();
    ctx.sessions = new Sessions(ctx.db.url);
    await applyMigrations(ctx.db.url, { log: () => undefined, warn: () => undefined });
  });
  afterEach(async () => {
    await ctx.sessions.closeAll();
    await ctx.db.drop();
  });
  return ctx;
}
