import { eventually } from './support/eventually.js';
import { useServiceWithDownstream } from './support/forwarding.js';
import { metaText, uniqueId } from './support/payloads.js';
import { postWebhook } from './support/test-app.js';

// The default retention (8 days): a signed event older than that may have been forgotten by the
// purge, so a captured copy must not act again.
const ctx = useServiceWithDownstream(() => ({ status: 200 }), { RETENTION_DAYS: '8' });

const DAY = 86_400;
const daysAgo = (days: number) => String(Math.floor(Date.now() / 1000) - days * DAY);

function metaMessages(...ages: number[]) {
  const payload = metaText();
  const [template] = payload.entry[0].changes[0].value.messages;
  payload.entry[0].changes[0].value.messages = ages.map((age) => ({ ...template, id: uniqueId(), timestamp: daysAgo(age) }));
  return { payload, keys: payload.entry[0].changes[0].value.messages.map((m: { id: string }) => `meta:msg:${m.id}`) as string[] };
}

const stored = async (key: string) => (await ctx.db.query('SELECT 1 FROM messages WHERE message_id = $1', [key])).length === 1;

describe('the stale-replay guard (RETENTION_DAYS=8)', () => {
  it('answers a signed 9-day-old event 200 "stale": not stored, not forwarded; a 6-day-old one is accepted and forwarded', async () => {
    const before = await (await fetch(`${ctx.app.baseUrl}/metrics`)).text();
    const old = metaMessages(9);
    const answer = await postWebhook(ctx.app.baseUrl, old.payload);
    expect(answer).toEqual({ status: 200, body: { accepted: 0, duplicates: 0, stale: 1, events: [{ id: old.keys[0], result: 'stale' }] } });

    const recent = metaMessages(6);
    expect((await postWebhook(ctx.app.baseUrl, recent.payload)).body).toMatchObject({ accepted: 1, stale: 0 });
    await eventually(async () => ctx.downstream.byKey(recent.keys[0]).length, (n) => n === 1);
    await eventually(() => ctx.db.query("SELECT 1 FROM messages WHERE status <> 'processed'"), (rows) => rows.length === 0);
    expect(await stored(old.keys[0])).toBe(false);
    expect(ctx.downstream.byKey(old.keys[0])).toHaveLength(0);

    const after = await (await fetch(`${ctx.app.baseUrl}/metrics`)).text();
    const stale = (text: string) => Number(/wdd_events_total\{provider="meta",kind="message",result="stale"\} (\d+)/.exec(text)![1]);
    expect(stale(after) - stale(before)).toBe(1);
  });

  it('judges each event of a batch on its own, and answers a replayed stale copy the same way every time', async () => {
    const batch = metaMessages(0, 10, 2);
    const first = await postWebhook(ctx.app.baseUrl, batch.payload);
    expect(first.body.events.map((e) => e.result)).toEqual(['accepted', 'stale', 'accepted']);
    const again = await postWebhook(ctx.app.baseUrl, batch.payload);
    expect(again.body.events.map((e) => e.result)).toEqual(['duplicate', 'stale', 'duplicate']);
    expect(await stored(batch.keys[1])).toBe(false);
  });
});
