// Workload definitions: request bodies, the measured (and warm-up) request sequences,
// and the correctness check for each. Every run gets its own id prefix so no run
// collides with ids stored by an earlier one.
import { randomBytes } from 'node:crypto';

export const runPrefix = () => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`.toUpperCase();

const WABA = ['102290129340398', '102290129340399'];
const METADATA = { display_phone_number: '15550783881', phone_number_id: '106540352242922' };
const ID_MARK = '\u0000ID\u0000';
const seq = (n) => String(n).padStart(8, '0');

/** Splits a JSON template at the id placeholder; pads the text so bodies are ~`size` bytes. */
export function template(build, size) {
  const mark = JSON.stringify(ID_MARK).slice(1, -1); // the placeholder as it appears inside JSON text
  const bare = JSON.stringify(build(ID_MARK, '')).length - mark.length + 40; // ids are ~40 chars
  const pad = 'Lorem ipsum dolor sit amet, bench padding. '.repeat(40).slice(0, Math.max(0, size - bare));
  const [head, tail] = JSON.stringify(build(ID_MARK, pad)).split(mark);
  return (id) => head + id + tail;
}

export const metaText = (id, body, ts) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: WABA[0], changes: [{ field: 'messages', value: {
    messaging_product: 'whatsapp', metadata: METADATA,
    contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: '16505551234' }],
    messages: [{ from: '16505551234', id, timestamp: ts, type: 'text', text: { body: `Does it come in another color? ${body}` } }],
  } }] }],
});

const flatText = (id, body, ts) => ({
  event: 'message.received', id, timestamp: Number(ts), from: '16505551234', type: 'text', text: { body: `Does it come in another color? ${body}` },
});

/** A sequence of requests: `next()` hands out item i (single-threaded, shared by all connections). */
function source(total, make) {
  let i = 0;
  return {
    total,
    get exhausted() { return i >= total; },
    next() { return make(i++); },
  };
}

/** One Meta POST with `size` updates: messages over 2 entries x 5 changes, plus ~1 % statuses. */
export function metaBatch(prefix, n, size, ts) {
  const statuses = Math.max(1, Math.round(size / 100));
  const messages = size - statuses;
  const changes = Array.from({ length: 10 }, () => ({ field: 'messages', value: { messaging_product: 'whatsapp', metadata: METADATA, contacts: [], messages: [] } }));
  for (let m = 0; m < messages; m++) {
    const wa = `1650555${String(m % 1000).padStart(4, '0')}`;
    const v = changes[m % 10].value;
    if (v.contacts.length < 5) v.contacts.push({ profile: { name: `Customer ${m % 1000}` }, wa_id: wa });
    v.messages.push({ from: wa, id: `wamid.BENCH_${prefix}_B${seq(n)}_${m}`, timestamp: ts, type: 'text', text: { body: `Batch message ${m}: is the store open today?` } });
  }
  const st = Array.from({ length: statuses }, (_, k) => ({ id: `wamid.BENCH_${prefix}_S${seq(n)}_${k}`, status: 'delivered', timestamp: ts, recipient_id: '16505551234' }));
  const used = changes.filter((c) => c.value.messages.length > 0);
  const entries = [{ id: WABA[0], changes: used.slice(0, 5) }, { id: WABA[1], changes: used.slice(5) }];
  entries[1].changes.push({ field: 'messages', value: { messaging_product: 'whatsapp', metadata: METADATA, statuses: st } });
  return JSON.stringify({ object: 'whatsapp_business_account', entry: entries });
}

// ---- checks: `t` is the tally of the measured phase (see load.mjs) ----
const checkFresh = (t) => ({
  ok: t.accepted === t.distinct && t.duplicates === 0,
  detail: `accepted ${t.accepted} / ${t.distinct} distinct ids sent, duplicates ${t.duplicates} (expect 0)`,
});
const checkRedelivery = (t) => ({
  ok: t.accepted === 0 && t.duplicates === t.sentEvents,
  detail: `accepted ${t.accepted} (expect 0), duplicates ${t.duplicates} / ${t.sentEvents} redeliveries sent`,
});
const checkStorm = (t) => ({
  ok: t.accepted === t.distinct && t.doubleAccepted === 0,
  detail: `accepted ${t.accepted} / ${t.distinct} distinct ids sent, ids accepted more than once: ${t.doubleAccepted}, duplicates ${t.duplicates} (expect ${t.sentEvents - t.distinct})`,
});

/**
 * Each workload: `plan(opts)` returns { warmup?, measured, check, note }.
 * `multiEvent` workloads need a target that answers per-event JSON (not the references).
 */
export const WORKLOADS = {
  unique: {
    describe: 'unique Meta text messages (~1 KB), one per request',
    plan(o) {
      const p = runPrefix(), ts = String(Math.floor(Date.now() / 1000)), body = template((id, pad) => metaText(id, pad, ts), o.size);
      return { prefix: p, measured: source(o.count, (i) => { const id = `wamid.BENCH_${p}_U${seq(i)}`; return { id, events: 1, body: body(id) }; }), check: checkFresh };
    },
  },
  duplicates: {
    describe: 'redeliveries of already-stored ids (each id pre-sent once, unmeasured)',
    plan(o) {
      const p = runPrefix(), ts = String(Math.floor(Date.now() / 1000)), body = template((id, pad) => metaText(id, pad, ts), o.size);
      const items = Array.from({ length: o.ids }, (_, i) => { const id = `wamid.BENCH_${p}_D${seq(i)}`; return { id, events: 1, body: body(id) }; });
      return {
        prefix: p,
        warmup: source(items.length, (i) => items[i]),
        measured: source(o.count, (i) => items[i % items.length]),
        check: checkRedelivery,
      };
    },
  },
  storm: {
    describe: 'retry storm: ids x copies, copies of an id adjacent so different connections send them at once',
    plan(o) {
      const p = runPrefix(), ts = String(Math.floor(Date.now() / 1000)), body = template((id, pad) => metaText(id, pad, ts), o.size);
      const bodies = [];
      return {
        prefix: p,
        measured: source(Math.min(o.count, o.ids * o.copies), (i) => {
          const k = Math.floor(i / o.copies), id = `wamid.BENCH_${p}_R${seq(k)}`;
          bodies[k] ??= body(id);
          return { id, events: 1, body: bodies[k] };
        }),
        check: checkStorm,
      };
    },
  },
  flat: {
    describe: 'unique ids in the generic flat shape {"event","id",...} (~1 KB)',
    plan(o) {
      const p = runPrefix(), ts = String(Math.floor(Date.now() / 1000)), body = template((id, pad) => flatText(id, pad, ts), o.size);
      return { prefix: p, measured: source(o.count, (i) => { const id = `msg_bench_${p}_F${seq(i)}`; return { id, events: 1, body: body(id) }; }), check: checkFresh };
    },
  },
  batch: {
    describe: 'Meta POSTs of --batch-size updates (messages over entries/changes + ~1 % statuses)',
    multiEvent: true,
    defaultConnections: 4,
    plan(o) {
      const p = runPrefix(), ts = String(Math.floor(Date.now() / 1000));
      return { prefix: p, measured: source(o.count, (i) => ({ events: o.batchSize, body: metaBatch(p, i, o.batchSize, ts) })), check: checkFresh };
    },
  },
};
