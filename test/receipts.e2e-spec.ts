import { Global, Module } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { validateConfig } from './support/settings.js';
import { Database } from '../src/database/database.js';
import { ReceiptsRepository, type Receipt } from '../src/receipts/receipts.repository.js';
import type { ReceiptStatus, ReceiptUpdate } from '../src/sources/receipt-update.js';
import { parseGenericBody } from '../src/sources/generic/generic.parser.js';
import { parseMetaBody } from '../src/sources/meta/meta.parser.js';
import { applyMigrations } from '../src/migrations/migrator.js';
import { PrismaService } from '../src/prisma/prisma.service.js';
import { ReceiptsStepModule } from '../src/steps/receipts/receipts-step.module.js';
import { ReceiptsStep } from '../src/steps/receipts/receipts.step.js';
import { WorkerStep } from '../src/inbox/event-step.js';
import { createTestDatabase, type TestDatabase } from './support/test-database.js';

let db: TestDatabase;
let prisma: PrismaService;
let receipts: ReceiptsRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  await applyMigrations(db.url, { log: () => undefined, warn: () => undefined });
  prisma = new PrismaService(validateConfig({ DATABASE_URL: db.url }));
  receipts = new ReceiptsRepository(new Database(prisma));
});
afterAll(async () => {
  await prisma?.$disconnect();
  await db?.drop();
});

let counter = 0;
const newWamid = () => `wamid.e2e.${++counter}.${Date.now()}`;

/** Distinct, readable times: minute `n` after a fixed instant. */
const minute = (n: number) => new Date(Date.UTC(2025, 5, 15, 12, n));

const update = (wamid: string, status: ReceiptStatus, at: Date | null, fields: Partial<ReceiptUpdate> = {}): ReceiptUpdate => ({
  wamid, source: 'meta', tenant: '', recipient: '16505551234', status, at, error: null, ...fields,
});

const applyAll = async (updates: ReceiptUpdate[]) => {
  const results: ReceiptStatus[] = [];
  for (const u of updates) results.push(await receipts.apply(u));
  return results;
};

const find = async (wamid: string, provider: ReceiptUpdate['source'] = 'meta') => (await receipts.findAll(wamid, provider))[0] ?? null;

/** The merged values, without the wamid and bookkeeping times, to compare records of different messages. */
const valuesOf = ({ wamid: _wamid, createdAt: _created, updatedAt: _updated, ...values }: Receipt) => values;
const noTimes = { sentAt: null, deliveredAt: null, readAt: null, playedAt: null, failedAt: null };

describe('the receipt', () => {
  it('ends at the furthest status with every time when statuses arrive out of order', async () => {
    const wamid = newWamid();
    const results = await applyAll([update(wamid, 'read', minute(3)), update(wamid, 'delivered', minute(2)), update(wamid, 'sent', minute(1))]);
    expect(results).toEqual(['read', 'read', 'read']);
    expect(await find(wamid)).toEqual({
      wamid, provider: 'meta', tenant: null, recipient: '16505551234', status: 'read', error: null,
      sentAt: minute(1), deliveredAt: minute(2), readAt: minute(3), playedAt: null, failedAt: null,
      createdAt: expect.any(Date), updatedAt: expect.any(Date),
    });
  });

  it('is left exactly as it was by repeated statuses, updated_at included', async () => {
    const wamid = newWamid();
    await applyAll([update(wamid, 'sent', minute(1)), update(wamid, 'delivered', minute(2))]);
    const before = await find(wamid);
    // A redelivery may carry a later time for the same status; the first report stands.
    const results = await applyAll([
      update(wamid, 'delivered', minute(2)), update(wamid, 'sent', minute(1)), update(wamid, 'delivered', minute(9)), update(wamid, 'sent', null),
    ]);
    expect(results).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(await find(wamid)).toEqual(before);
    expect(before).toMatchObject({ status: 'delivered', sentAt: minute(1), deliveredAt: minute(2) });
  });

  it('stays failed, with the first error, whatever arrives after', async () => {
    const wamid = newWamid();
    const failed = update(wamid, 'failed', minute(2), { error: '131026 Message undeliverable: Recipient is not on WhatsApp.' });
    const results = await applyAll([
      update(wamid, 'sent', minute(1)), failed, update(wamid, 'read', minute(4)), update(wamid, 'delivered', minute(3)),
      update(wamid, 'failed', minute(5), { error: '131000 Something went wrong' }),
    ]);
    expect(results).toEqual(['sent', 'failed', 'failed', 'failed', 'failed']);
    // The later reports are still recorded as times: the record would hold them had they come first.
    expect(valuesOf((await find(wamid))!)).toEqual({
      provider: 'meta', tenant: null, recipient: '16505551234', status: 'failed', error: '131026 Message undeliverable: Recipient is not on WhatsApp.',
      sentAt: minute(1), deliveredAt: minute(3), readAt: minute(4), playedAt: null, failedAt: minute(2),
    });
  });

  it('moves from read to played, and a late read does not move it back', async () => {
    const wamid = newWamid();
    expect(await applyAll([update(wamid, 'read', minute(1)), update(wamid, 'played', minute(2)), update(wamid, 'read', minute(3))]))
      .toEqual(['read', 'played', 'played']);
    expect(await find(wamid)).toMatchObject({ status: 'played', readAt: minute(1), playedAt: minute(2) });
  });

  it('is the same after every order of sent, delivered and read', async () => {
    const statuses: [ReceiptStatus, Date][] = [['sent', minute(1)], ['delivered', minute(2)], ['read', minute(3)]];
    const orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    const records = [];
    for (const order of orders) {
      const wamid = newWamid();
      const updates = order.map((i) => update(wamid, ...statuses[i]!));
      await applyAll([...updates, ...updates.reverse()]);
      records.push(valuesOf((await find(wamid))!));
    }
    const expected = {
      provider: 'meta', tenant: null, recipient: '16505551234', status: 'read', error: null,
      ...noTimes, sentAt: minute(1), deliveredAt: minute(2), readAt: minute(3),
    };
    expect(records).toEqual(Array(orders.length).fill(expected));
  });

  it('ends at the furthest status and the earliest times after 40 concurrent shuffled updates', async () => {
    const wamid = newWamid();
    const order: ReceiptStatus[] = ['sent', 'delivered', 'read', 'played'];
    // Each status ten times: its earliest report at minute index+1, later ones up to 40 minutes on,
    // and one without a time (stored as now(), which loses to every 2025 time).
    const updates = Array.from({ length: 40 }, (_, i) => {
      const status = order[i % 4]!;
      return update(wamid, status, i >= 36 ? null : minute(i + 1), { recipient: i === 0 ? null : '16505551234' });
    });
    const shuffled = updates.map((u) => ({ u, r: Math.random() })).sort((a, b) => a.r - b.r).map(({ u }) => u);
    const results = await Promise.all(shuffled.map((u) => receipts.apply(u)));
    // Each caller sees its own status or a later one, never an earlier one.
    results.forEach((result, i) => expect(order.indexOf(result)).toBeGreaterThanOrEqual(order.indexOf(shuffled[i]!.status)));
    expect(results).toContain('played');
    expect(valuesOf((await find(wamid))!)).toEqual({
      provider: 'meta', tenant: null, recipient: '16505551234', status: 'played', error: null,
      sentAt: minute(1), deliveredAt: minute(2), readAt: minute(3), playedAt: minute(4), failedAt: null,
    });
  });

  it('stores the time of writing when the provider gives none', async () => {
    const wamid = newWamid();
    const before = Date.now();
    await receipts.apply(update(wamid, 'delivered', null, { source: 'wasender', recipient: null }));
    const record = (await find(wamid, 'wasender'))!;
    expect(record).toMatchObject({ provider: 'wasender', recipient: null, status: 'delivered', ...noTimes, deliveredAt: expect.any(Date) });
    expect(record.deliveredAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(record.deliveredAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('is null for a message it has never heard of', async () => {
    expect(await find('wamid.unknown')).toBeNull();
  });

  it("is kept per source: another source's status for the same id never moves it", async () => {
    const wamid = newWamid();
    await applyAll([update(wamid, 'delivered', minute(2))]);
    expect(await applyAll([update(wamid, 'failed', minute(3), { source: 'generic', error: 'forged' })])).toEqual(['failed']);
    expect(await find(wamid)).toMatchObject({ provider: 'meta', status: 'delivered', error: null, failedAt: null });
    expect(await find(wamid, 'generic')).toMatchObject({ provider: 'generic', status: 'failed' });
    expect((await receipts.findAll(wamid)).map((r) => r.provider)).toEqual(['meta', 'generic']);
  });
});

@Global()
@Module({ providers: [{ provide: PrismaService, useFactory: () => prisma }, Database], exports: [PrismaService, Database] })
class TestPrismaModule {}

describe('the delivery-status step', () => {
  const metaStatus = (wamid: string, status: string, timestamp: string) => ({
    ...parseMetaBody({
      object: 'whatsapp_business_account',
      entry: [{ id: 'W', changes: [{ field: 'messages', value: { statuses: [{ id: wamid, status, timestamp, recipient_id: '16505551234' }] } }] }],
    })[0]!,
    authenticated: true,
  });

  it('is discovered as the worker step delivery-status, order 10, and records what the events say', async () => {
    const app = await Test.createTestingModule({ imports: [TestPrismaModule, DiscoveryModule, ReceiptsStepModule] }).compile();
    try {
      const discovery = app.get(DiscoveryService);
      const [wrapper, ...others] = discovery.getProviders({ metadataKey: WorkerStep.KEY });
      expect(others).toHaveLength(0);
      expect(discovery.getMetadataByDecorator(WorkerStep, wrapper!)).toEqual({ name: 'delivery-status', order: 10 });
      const step = wrapper!.instance as ReceiptsStep;
      expect(step).toBeInstanceOf(ReceiptsStep);

      const wamid = newWamid();
      const read = metaStatus(wamid, 'read', '1750030100');
      const delivered = metaStatus(wamid, 'delivered', '1750030075');
      expect([step.appliesTo(read), step.appliesTo(delivered)]).toEqual([true, true]);
      expect(await step.run(read)).toEqual({ wamid, status: 'read' });
      expect(await step.run(delivered)).toEqual({ wamid, status: 'read' });
      expect(await find(wamid)).toMatchObject({
        status: 'read', deliveredAt: new Date(1750030075_000), readAt: new Date(1750030100_000), recipient: '16505551234',
      });

      const message = parseGenericBody({ id: 'G-IN', event: 'message', from: '1555' })[0]!;
      expect(step.appliesTo({ ...message, authenticated: true })).toBe(false);
      expect(step.appliesTo({ ...read, authenticated: false })).toBe(false);
    } finally {
      await app.close();
    }
  });
});
