import { eventually } from './support/eventually.js';
import { fixture, uniqueId } from './support/payloads.js';
import { postWebhook, useServiceWithDatabase } from './support/test-app.js';

const ctx = useServiceWithDatabase({ WORKER_ENABLED: 'true' });

/** A Meta status webhook for an outbound message; `at` in seconds after a fixed instant. */
function metaStatus(wamid: string, status: string, at: number, extra: Record<string, unknown> = {}) {
  const payload = fixture('meta_status_delivered');
  Object.assign(payload.entry[0].changes[0].value.statuses[0], { id: wamid, status, timestamp: String(1750030000 + at), ...extra });
  return payload;
}
const time = (at: number) => new Date((1750030000 + at) * 1000);

const deliveryOf = async (wamid: string) => (await ctx.db.query('SELECT * FROM deliveries WHERE wamid = $1', [wamid]))[0];
const allProcessed = () =>
  eventually(
    () => ctx.db.query("SELECT count(*)::int AS n FROM messages WHERE status <> 'processed'"),
    ([row]) => row.n === 0,
  );

describe('receipts through the whole pipeline', () => {
  it('never move backwards, whatever the order and however often statuses arrive', async () => {
    const wamid = uniqueId('wamid.OUT');
    // read first, then the older statuses, each delivered several times, some at once.
    await postWebhook(ctx.service.baseUrl, metaStatus(wamid, 'read', 30));
    await allProcessed();
    await Promise.all([
      postWebhook(ctx.service.baseUrl, metaStatus(wamid, 'delivered', 20)),
      postWebhook(ctx.service.baseUrl, metaStatus(wamid, 'sent', 10)),
      postWebhook(ctx.service.baseUrl, metaStatus(wamid, 'delivered', 20)),
      postWebhook(ctx.service.baseUrl, metaStatus(wamid, 'read', 30)),
    ]);
    await postWebhook(ctx.service.baseUrl, metaStatus(wamid, 'sent', 10));
    await allProcessed();

    expect(await deliveryOf(wamid)).toMatchObject({
      status: 'read', sent_at: time(10), delivered_at: time(20), read_at: time(30), failed_at: null, recipient: '16505551234',
    });
  });

  it('keep failed as the last word, with its error', async () => {
    const wamid = uniqueId('wamid.OUT');
    await postWebhook(ctx.service.baseUrl, metaStatus(wamid, 'sent', 1));
    await postWebhook(ctx.service.baseUrl, metaStatus(wamid, 'failed', 2, {
      errors: [{ code: 131026, title: 'Message undeliverable', error_data: { details: 'Receiver is incapable of receiving this message' } }],
    }));
    await allProcessed();
    await postWebhook(ctx.service.baseUrl, metaStatus(wamid, 'delivered', 3));
    await allProcessed();
    expect(await deliveryOf(wamid)).toMatchObject({
      status: 'failed', failed_at: time(2), error: '131026 Message undeliverable: Receiver is incapable of receiving this message',
    });
  });

  it('follow WASender’s numeric statuses too', async () => {
    const id = uniqueId('3EB0');
    const update = (status: number, timestamp: number) => {
      const payload = fixture('wasender_messages_update_status');
      payload.data.key.id = id;
      payload.data.update.status = status;
      payload.timestamp = timestamp;
      return payload;
    };
    await postWebhook(ctx.service.baseUrl, update(4, 1750031020)); // read
    await postWebhook(ctx.service.baseUrl, update(3, 1750031010)); // delivered, late
    await allProcessed();
    expect(await deliveryOf(id)).toMatchObject({ provider: 'wasender', status: 'read', read_at: new Date(1750031020 * 1000) });
  });
});
