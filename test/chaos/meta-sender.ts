import { randomUUID } from 'node:crypto';
import { metaSignature } from '../support/signing.js';

/** One webhook POST and the idempotency keys of the events in it. */
export interface Delivery {
  body: string;
  keys: string[];
}

export interface SendReport {
  /** Keys of events in deliveries that were finally answered 200. */
  acked: Set<string>;
  /** Answers by status code, retried ones included; 0 counts transport errors (refused, reset, timed out). */
  answers: Map<number, number>;
  /** Deliveries that got a 4xx (a bug: Meta would drop them) or were still failing at the deadline. */
  failed: Array<{ delivery: Delivery; status: number }>;
}

const text = (id: string) => ({ from: '16505551234', id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: `chaos ${id}` } });

function metaBody(ids: string[]): Delivery {
  const body = {
    object: 'whatsapp_business_account',
    entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '1' }, messages: ids.map(text) } }] }],
  };
  return { body: JSON.stringify(body), keys: ids.map((id) => `meta:msg:${id}`) };
}

/**
 * What a provider sends on a busy day: mostly single messages, some batches of 20, and
 * redeliveries of deliveries sent a little earlier (byte for byte, as Meta retries).
 */
export function mixedDeliveries(count: number, prefix = randomUUID().slice(0, 8)): Delivery[] {
  const deliveries: Delivery[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 5 === 3 && deliveries.length > 4) deliveries.push(deliveries[i - 4]);
    else if (i % 5 === 4) deliveries.push(metaBody(Array.from({ length: 20 }, (_, j) => `wamid.CHAOS.${prefix}.${i}.${j}`)));
    else deliveries.push(metaBody([`wamid.CHAOS.${prefix}.${i}`]));
  }
  return deliveries;
}

/**
 * Sends every delivery signed, `concurrency` at a time, retrying transport errors and 5xx with
 * backoff as Meta does (here until `deadlineMs`), so a delivery ends either answered 200 or
 * reported failed. `target()` is asked for the URL before each try: a test may move it.
 */
export async function sendLikeMeta(
  target: () => string,
  deliveries: Delivery[],
  { concurrency = 16, deadlineMs = 60_000, timeoutMs = 15_000, onAck }: { concurrency?: number; deadlineMs?: number; timeoutMs?: number; onAck?: (acked: number) => void } = {},
): Promise<SendReport> {
  const report: SendReport = { acked: new Set(), answers: new Map(), failed: [] };
  const until = Date.now() + deadlineMs;
  let next = 0;
  const count = (status: number) => report.answers.set(status, (report.answers.get(status) ?? 0) + 1);
  const sendOne = async (delivery: Delivery) => {
    for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
      let status = 0;
      try {
        const res = await fetch(`${target()}/webhook/meta`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(delivery.body) },
          body: delivery.body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 0;
      }
      count(status);
      if (status === 200) {
        for (const key of delivery.keys) report.acked.add(key);
        onAck?.(report.acked.size);
        return;
      }
      if ((status >= 400 && status < 500) || Date.now() + delay > until) {
        report.failed.push({ delivery, status });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < deliveries.length) await sendOne(deliveries[next++]);
    }),
  );
  return report;
}
