import { metaBatch, metaText, uniqueId } from './support/payloads.js';
import { postWebhook, useServiceWithDatabase } from './support/test-app.js';


const ctx = useServiceWithDatabase();

const post = (body: unknown) => postWebhook(ctx.service.baseUrl, body);
const rowOf = async (key: string) =>
  (await ctx.db.query('SELECT * FROM messages WHERE message_id = $1', [key]))[0];

describe('claiming by the unique message_id', () => {
  it('stores a new event with everything needed to process it, then answers a redelivery as duplicate', async () => {
    const wamid = uniqueId();
    const first = await post(metaText(wamid, 'first'));
    expect(first).toEqual({ status: 200, body: { accepted: 1, duplicates: 0, stale: 0, events: [{ id: `meta:msg:${wamid}`, result: 'accepted' }] } });

    const row = await rowOf(`meta:msg:${wamid}`);
    expect(row).toMatchObject({ provider: 'meta', kind: 'message', type: 'text', sender: '16505551234', status: 'received', duplicate_count: 0 });
    expect(row.payload.message.text.body).toBe('first');
    expect(row.received_at).toBeInstanceOf(Date);
    expect(row.provider_timestamp).toEqual(new Date(1749416383 * 1000));

    const again = await post(metaText(wamid, 'first'));
    expect(again).toEqual({ status: 200, body: { accepted: 0, duplicates: 1, stale: 0, events: [{ id: `meta:msg:${wamid}`, result: 'duplicate' }] } });
    const after = await rowOf(`meta:msg:${wamid}`);
    expect(after.duplicate_count).toBe(1);
    expect(after.last_duplicate_at).toBeInstanceOf(Date);
    expect(after.payload.message.text.body).toBe('first');
  });

  it('accepts exactly one of 50 concurrent identical webhook requests', async () => {
    const wamid = uniqueId();
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(metaText(wamid))));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => a.body.accepted === 1)).toHaveLength(1);
    expect(answers.reduce((n, a) => n + a.body.duplicates, 0)).toBe(49);
    const [{ count }] = await ctx.db.query('SELECT count(*)::int AS count FROM messages WHERE message_id = $1', [`meta:msg:${wamid}`]);
    expect(count).toBe(1);
    expect((await rowOf(`meta:msg:${wamid}`)).duplicate_count).toBe(49);
  });

  it('keeps the new siblings of already-seen events in one batch', async () => {
    const seen = [uniqueId(), uniqueId()];
    for (const id of seen) expect((await post(metaText(id))).body.accepted).toBe(1);
    const fresh = [uniqueId(), uniqueId(), uniqueId()];
    const payload = metaText(fresh[0]);
    const value = payload.entry[0].changes[0].value;
    value.messages = [fresh[0], seen[0], fresh[1], seen[1], fresh[2], fresh[2]].map((id) => ({ ...value.messages[0], id }));

    const answer = await post(payload);
    expect(answer.status).toBe(200);
    expect(answer.body.events.map((e) => e.result)).toEqual(['accepted', 'duplicate', 'accepted', 'duplicate', 'accepted', 'duplicate']);
    expect(answer.body).toMatchObject({ accepted: 3, duplicates: 3 });
    const rows = await ctx.db.query('SELECT message_id FROM messages WHERE message_id = ANY($1)', [fresh.map((id) => `meta:msg:${id}`)]);
    expect(rows).toHaveLength(3);
    expect((await rowOf(`meta:msg:${fresh[2]}`)).duplicate_count).toBe(1);
  });

  it('claims a 1,000-update batch in one delivery, and its redelivery as 1,000 duplicates', async () => {
    const { payload, keys } = metaBatch(1000);
    const first = await post(payload);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ accepted: 1000, duplicates: 0 });
    expect(first.body.events.map((e) => e.id).sort()).toEqual([...keys].sort());
    const [{ count }] = await ctx.db.query('SELECT count(*)::int AS count FROM messages WHERE message_id = ANY($1)', [keys]);
    expect(count).toBe(1000);

    const again = await post(payload);
    expect(again.body).toMatchObject({ accepted: 0, duplicates: 1000 });
  });

  it('answers concurrent overlapping batches with every key accepted exactly once', async () => {
    const ids = Array.from({ length: 40 }, () => uniqueId());
    const requests = Array.from({ length: 20 }, (_, i) => {
      const payload = metaText(ids[0]);
      const value = payload.entry[0].changes[0].value;
      // Each webhook request carries 10 ids, rotated so concurrent batches overlap in different orders.
      value.messages = Array.from({ length: 10 }, (_, j) => ({ ...value.messages[0], id: ids[(i * 7 + j * 3) % ids.length] }));
      return payload;
    });
    const answers = await Promise.all(requests.map(post));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const acceptedKeys = answers.flatMap((a) => a.body.events.filter((e) => e.result === 'accepted').map((e) => e.id));
    const sent = new Set(requests.flatMap((d) => d.entry[0].changes[0].value.messages.map((m: { id: string }) => `meta:msg:${m.id}`)));
    expect(acceptedKeys.sort()).toEqual([...sent].sort());
  });

  it('maps a unique_violation raised by the constraint to a duplicate without dropping its siblings', async () => {
    const existing = uniqueId();
    expect((await post(metaText(existing))).body.accepted).toBe(1);
    // Stands in for any path on which 23505 surfaces instead of ON CONFLICT resolving it
    // (e.g. a uniqueness enforced by a partitioned or distributed deployment).
    await ctx.db.query(`
      CREATE FUNCTION force_unique_violation() RETURNS trigger AS $$
      BEGIN
        IF NEW.message_id = '${`meta:msg:${existing}`}' THEN
          RAISE unique_violation USING MESSAGE = 'duplicate key value violates unique constraint "messages_pkey"';
        END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql;
      CREATE TRIGGER force_unique_violation BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION force_unique_violation();`);
    try {
      const fresh = [uniqueId(), uniqueId()];
      const payload = metaText(fresh[0]);
      const value = payload.entry[0].changes[0].value;
      value.messages = [fresh[0], existing, fresh[1]].map((id) => ({ ...value.messages[0], id }));
      const answer = await post(payload);
      expect(answer.status).toBe(200);
      expect(answer.body.events.map((e) => e.result)).toEqual(['accepted', 'duplicate', 'accepted']);
      expect(await rowOf(`meta:msg:${fresh[0]}`)).toBeDefined();
      expect(await rowOf(`meta:msg:${fresh[1]}`)).toBeDefined();
      expect((await rowOf(`meta:msg:${existing}`)).duplicate_count).toBe(1);
    } finally {
      await ctx.db.query('DROP TRIGGER force_unique_violation ON messages; DROP FUNCTION force_unique_violation();');
    }
  });

  it('stores a body whose strings hold NUL characters (which jsonb cannot) instead of failing it', async () => {
    const wamid = uniqueId();
    const answer = await post(metaText(wamid, 'before\u0000after'));
    expect(answer.body.accepted).toBe(1);
    expect((await rowOf(`meta:msg:${wamid}`)).payload.message.text.body).toBe('before\ufffdafter');
  });
});
