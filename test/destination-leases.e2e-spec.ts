import { randomUUID } from 'node:crypto';
import { DestinationLeasesRepository } from '../src/destinations/destination-leases.repository.js';
import type { LeasedDelivery } from '../src/destinations/leased-delivery.js';
import { useServiceWithDatabase } from './support/test-app.js';

const ctx = useServiceWithDatabase();

/** A delivery leased `attempts` times and now held under a fresh token, as the lease statement leaves it. */
async function leasedDelivery(attempts: number): Promise<LeasedDelivery> {
  const key = `generic:msg:${randomUUID()}`;
  const token = randomUUID();
  await ctx.db.query(`INSERT INTO messages (message_id, provider, kind, type, payload, status) VALUES ($1, 'generic', 'message', 'text', '{}', 'processed')`, [key]);
  await ctx.db.query(
    `INSERT INTO destination_jobs (message_id, destination, status, attempts, due_at, lease_token, leased_by)
     VALUES ($1, 'crm', 'processing', $2, now() + interval '5 seconds', $3, 'test')`,
    [key, attempts, token],
  );
  return { key: `crm/${key}`, destination: 'crm', event: { key } as LeasedDelivery['event'], replay: 0, leaseToken: token, attempt: attempts, receivedAt: new Date(), validUntil: 0 };
}
const row = async (job: LeasedDelivery) =>
  (await ctx.db.query('SELECT status, attempts, lease_token, due_at > now() + interval \'1 minute\' AS moved FROM destination_jobs WHERE message_id = $1', [job.event.key]))[0];

describe('destination leases', () => {
  it('renew moves only the leases still held, and says which', async () => {
    const held = await leasedDelivery(1);
    const lost = await leasedDelivery(1);
    await ctx.db.query('UPDATE destination_jobs SET lease_token = $2 WHERE message_id = $1', [lost.event.key, randomUUID()]);
    const leases = ctx.service.app.get(DestinationLeasesRepository);
    expect(await leases.renew([held, lost], 600)).toEqual(new Set([held.leaseToken]));
    expect(await row(held)).toMatchObject({ status: 'processing', moved: true });
    expect(await row(lost)).toMatchObject({ moved: false });
  });

  it('release gives deliveries back at once without counting the interrupted attempt', async () => {
    const first = await leasedDelivery(1);
    const retry = await leasedDelivery(3);
    const leases = ctx.service.app.get(DestinationLeasesRepository);
    expect(await leases.release([first, retry])).toBe(2);
    expect(await row(first)).toMatchObject({ status: 'received', attempts: 0, lease_token: null });
    expect(await row(retry)).toMatchObject({ status: 'failed', attempts: 2, lease_token: null });
    expect(await leases.release([])).toBe(0);
  });
});
