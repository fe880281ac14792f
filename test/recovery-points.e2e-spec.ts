import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { NormalizedEvent } from '../src/sources/shared/normalized-event.js';
import { WorkerStep, type EventStep, type StepContext } from '../src/inbox/event-step.js';
import { CoreModule } from '../src/core.module.js';
import { eventually } from './support/eventually.js';
import { loadPrismaRuntime } from './support/test-app.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

/** What the team's steps saw, in order. */
const calls: Array<{ step: string; key: string; attempt: number; idempotencyKey: string; results: Record<string, unknown> }> = [];
const failuresLeft = new Map<string, number>();

function note(step: string, event: NormalizedEvent, context: StepContext) {
  calls.push({ step, key: event.key, attempt: context.attempt, idempotencyKey: context.idempotencyKey, results: { ...context.results } });
  const left = failuresLeft.get(`${step}:${event.key}`) ?? 0;
  if (left > 0) {
    failuresLeft.set(`${step}:${event.key}`, left - 1);
    throw new Error(`${step} is down`);
  }
}

@Injectable()
@WorkerStep({ name: 'reserve-stock', order: 50 })
class ReserveStockStep implements EventStep {
  appliesTo(event: NormalizedEvent) {
    return event.kind === 'message';
  }
  async run(event: NormalizedEvent, context: StepContext) {
    note('reserve-stock', event, context);
    return { reservation: `R-${event.key}` };
  }
}

@Injectable()
@WorkerStep({ name: 'charge-card', order: 60 })
class ChargeCardStep implements EventStep {
  appliesTo(event: NormalizedEvent) {
    return event.kind === 'message';
  }
  async run(event: NormalizedEvent, context: StepContext) {
    note('charge-card', event, context);
    return { charge: 'ch_1' };
  }
}

@Module({ providers: [ChargeCardStep, ReserveStockStep] })
class ShopStepsModule {}

let db: TestDatabase;
let app: INestApplicationContext;

beforeAll(async () => {
  db = await createTestDatabase();
  const saved = { ...process.env };
  Object.assign(process.env, { DATABASE_URL: db.url, LOG_LEVEL: 'silent', WORKER_ENABLED: 'true', RETRY_BASE_MS: '50' });
  try {
    const moduleRef = await Test.createTestingModule({ imports: [CoreModule, ShopStepsModule] }).compile();
    await loadPrismaRuntime(moduleRef);
    app = await moduleRef.init();
  } finally {
    process.env = saved;
  }
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const insertEvent = (key: string, kind = 'message') =>
  db.query(`INSERT INTO messages (message_id, provider, kind, type, payload) VALUES ($1, 'generic', $2::event_kind, 'text', '{}')`, [key, kind]);
const rowOf = async (key: string) => (await db.query('SELECT * FROM messages WHERE message_id = $1', [key]))[0];

describe('steps registered by a team module', () => {
  it('run in order, each with a stable idempotency key and the results of the steps before it', async () => {
    await insertEvent('generic:msg:order-1');
    await eventually(() => rowOf('generic:msg:order-1'), (r) => r.status === 'processed');
    expect(calls.filter((c) => c.key === 'generic:msg:order-1')).toEqual([
      { step: 'reserve-stock', key: 'generic:msg:order-1', attempt: 1, idempotencyKey: 'generic:msg:order-1:reserve-stock', results: {} },
      {
        step: 'charge-card', key: 'generic:msg:order-1', attempt: 1, idempotencyKey: 'generic:msg:order-1:charge-card',
        results: { 'reserve-stock': { reservation: 'R-generic:msg:order-1' } },
      },
    ]);
  });

  it('resume a retry at the first incomplete step: a completed step never runs again', async () => {
    failuresLeft.set('charge-card:generic:msg:order-2', 2);
    await insertEvent('generic:msg:order-2');
    const row = await eventually(() => rowOf('generic:msg:order-2'), (r) => r.status === 'processed');
    const seen = calls.filter((c) => c.key === 'generic:msg:order-2');
    expect(seen.map((c) => `${c.step}#${c.attempt}`)).toEqual(['reserve-stock#1', 'charge-card#1', 'charge-card#2', 'charge-card#3']);
    // The retry still sees the first step's result, read back from its record.
    expect(seen[3].results).toEqual({ 'reserve-stock': { reservation: 'R-generic:msg:order-2' } });
    expect(new Set(seen.filter((c) => c.step === 'charge-card').map((c) => c.idempotencyKey))).toEqual(new Set(['generic:msg:order-2:charge-card']));
    expect(row).toMatchObject({ attempts: 3, last_error: 'charge-card: charge-card is down' });
    const steps = await db.query('SELECT step, attempt, result FROM message_steps WHERE message_id = $1 ORDER BY completed_at', ['generic:msg:order-2']);
    expect(steps).toEqual([
      { step: 'reserve-stock', attempt: 1, result: { reservation: 'R-generic:msg:order-2' } },
      { step: 'charge-card', attempt: 3, result: { charge: 'ch_1' } },
    ]);
  });

  it('skip events they do not apply to; such an event is simply processed', async () => {
    await insertEvent('generic:status:x:read', 'status');
    await eventually(() => rowOf('generic:status:x:read'), (r) => r.status === 'processed');
    expect(calls.filter((c) => c.key === 'generic:status:x:read')).toEqual([]);
    expect(await db.query('SELECT * FROM message_steps WHERE message_id = $1', ['generic:status:x:read'])).toEqual([]);
  });
});

describe('step registration', () => {
  it('refuses to start with two steps of the same name', async () => {
    @Injectable()
    @WorkerStep({ name: 'charge-card' })
    class AnotherCharge implements EventStep {
      appliesTo() {
        return true;
      }
      async run() {
        return null;
      }
    }
    @Module({ providers: [AnotherCharge] })
    class Clash {}
    const saved = { ...process.env };
    Object.assign(process.env, { DATABASE_URL: db.url, LOG_LEVEL: 'silent', WORKER_ENABLED: 'false' });
    try {
      const moduleRef = await Test.createTestingModule({ imports: [CoreModule, ShopStepsModule, Clash] }).compile();
      await expect(moduleRef.init()).rejects.toThrow('two steps are named "charge-card"');
      await moduleRef.close();
    } finally {
      process.env = saved;
    }
  });
});
