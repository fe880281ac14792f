import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NormalizedEvent } from '../src/sources/shared/normalized-event.js';
import { WorkerStep, type EventStep, type StepContext } from '../src/inbox/event-step.js';
import { CoreModule } from '../src/core.module.js';
import { eventually } from './support/eventually.js';
import { loadPrismaRuntime } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/**
 * Every attempt is fenced in time (ATTEMPT_TIMEOUT_SECONDS frees its slot even when the step
 * ignores the abort) and in identity (the lease is renewed while it runs and a lost lease
 * aborts it). The step below waits on gates the tests open, so nothing depends on timing.
 */
interface Run {
  key: string;
  attempt: number;
  signal: AbortSignal;
  finished: boolean;
}
const runs: Run[] = [];
const gates = new Map<string, { open: () => void; opened: Promise<void> }>();
/** Runs of each key at this moment, and the most there ever were at once. */
const concurrent = new Map<string, number>();
const maxConcurrent = new Map<string, number>();

function gate(key: string) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  gates.set(key, { open, opened });
  return open;
}

@Injectable()
@WorkerStep({ name: 'gated', order: 50 })
class GatedStep implements EventStep {
  appliesTo() {
    return true;
  }
  /** Waits for its gate and never looks at the signal: the worst kind of custom step. */
  async run(event: NormalizedEvent, context: StepContext) {
    const run: Run = { key: event.key, attempt: context.attempt, signal: context.signal, finished: false };
    runs.push(run);
    concurrent.set(event.key, (concurrent.get(event.key) ?? 0) + 1);
    maxConcurrent.set(event.key, Math.max(maxConcurrent.get(event.key) ?? 0, concurrent.get(event.key)!));
    try {
      await gates.get(event.key)?.opened;
    } finally {
      concurrent.set(event.key, concurrent.get(event.key)! - 1);
      run.finished = true;
    }
    return { ok: true };
  }
}

@Module({ providers: [GatedStep] })
class GatedStepModule {}

let db: TestDatabase;
const apps: INestApplicationContext[] = [];

/** A worker process of its own (its own pool, lease keeper and slots) on the shared database. */
async function startWorker(): Promise<void> {
  const saved = { ...process.env };
  Object.assign(process.env, {
    DATABASE_URL: db.url, LOG_LEVEL: 'silent', WORKER_ENABLED: 'true', WORKER_CONCURRENCY: '1', WORKER_POLL_MS: '100',
    LEASE_SECONDS: '1', ATTEMPT_TIMEOUT_SECONDS: '2', FORWARD_TIMEOUT_MS: '1000', RETRY_BASE_MS: '50', MAX_ATTEMPTS: '3', RETENTION_ENABLED: 'false',
  });
  try {
    const moduleRef = await Test.createTestingModule({ imports: [CoreModule, GatedStepModule] }).compile();
    await loadPrismaRuntime(moduleRef);
    apps.push(await moduleRef.init());
  } finally {
    process.env = saved;
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  await startWorker();
  await startWorker();
});
afterAll(async () => {
  for (const key of gates.keys()) gates.get(key)!.open();
  for (const app of apps) await app.close();
  await db?.drop();
});

const insertEvent = (key: string) => db.query(`INSERT INTO messages (message_id, provider, kind, type, payload) VALUES ($1, 'generic', 'message', 'text', '{}')`, [key]);
const rowOf = async (key: string) => (await db.query('SELECT status, attempts, last_error, due_at, lease_token FROM messages WHERE message_id = $1', [key]))[0];
const runsOf = (key: string) => runs.filter((r) => r.key === key);

/** Waits until the lease of `key` has been renewed `times` times (its due_at moved on). */
async function renewals(key: string, times: number): Promise<void> {
  const seen = new Set<number>();
  await eventually(() => rowOf(key), (row) => {
    seen.add(row.due_at.getTime());
    return seen.size > times;
  });
}

/** Inserts an event whose step waits on a closed gate; resolves with its first run and the gate's opener. */
async function startGated(key: string): Promise<{ run: Run; open: () => void }> {
  const open = gate(key);
  await insertEvent(key);
  await eventually(async () => runsOf(key).length, (n) => n === 1);
  return { run: runsOf(key)[0], open };
}

describe('a slow but alive step', () => {
  it('keeps its lease past LEASE_SECONDS: no other worker starts it, and it runs once', async () => {
    const key = 'generic:msg:slow';
    const { open } = await startGated(key);
    await renewals(key, 2); // > LEASE_SECONDS, with two workers polling every 100 ms
    expect(runsOf(key)).toHaveLength(1);
    open();
    await eventually(() => rowOf(key), (row) => row.status === 'processed');
    expect(runsOf(key)).toHaveLength(1);
    expect((await rowOf(key)).attempts).toBe(1);
  });
});

describe('a step that ignores its abort and runs past ATTEMPT_TIMEOUT_SECONDS', () => {
  it('gives up its slot at once, keeps the event from a second concurrent run, and records the attempt as timed out', async () => {
    // One worker with one slot from here on: only a freed slot lets the other events through.
    await apps.pop()!.close();
    const key = 'generic:msg:stubborn';
    const { run: first, open } = await startGated(key);
    await eventually(async () => first.signal.aborted, Boolean); // the deadline fired; the step did not stop

    for (const other of ['generic:msg:other-1', 'generic:msg:other-2', 'generic:msg:other-3']) await insertEvent(other);
    for (const other of ['generic:msg:other-1', 'generic:msg:other-2', 'generic:msg:other-3']) {
      await eventually(() => rowOf(other), (row) => row.status === 'processed');
    }
    await renewals(key, 2);
    expect(first.finished).toBe(false);
    expect(runsOf(key)).toHaveLength(1); // no second run while the first one is still going
    expect((await rowOf(key)).status).toBe('processing');

    open();
    const row = await eventually(() => rowOf(key), (r) => r.status === 'processed');
    expect(runsOf(key).map((r) => r.attempt)).toEqual([1, 2]);
    expect(row.last_error).toMatch(/^gated: attempt exceeded 2000 ms \(ATTEMPT_TIMEOUT_SECONDS\); the step ignored the abort and finished \d+ ms later$/);
    expect(maxConcurrent.get(key)).toBe(1);
  });
});

describe('a lease that is lost while the step runs', () => {
  it('aborts the step and writes nothing for it', async () => {
    const key = 'generic:msg:taken-over';
    const { run, open } = await startGated(key);
    // Another worker's lease, as after an expiry: the token this attempt holds is gone.
    await db.query("UPDATE messages SET lease_token = gen_random_uuid(), leased_by = 'someone else' WHERE message_id = $1", [key]);
    await eventually(async () => run.signal.aborted, Boolean);
    expect(String(run.signal.reason)).toMatch(/LeaseLostError/);
    open();
    await eventually(async () => run.finished, Boolean);
    const row = await rowOf(key);
    expect(row).toMatchObject({ status: 'processing', attempts: 1, last_error: null });
    expect(await db.query('SELECT 1 FROM message_steps WHERE message_id = $1', [key])).toEqual([]);
  });
});
