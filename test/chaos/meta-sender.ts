import { randomUUID } from 'node:crypto';
import { metaSignature } from '../support/signing.js';

/** One webhook POST and the idempotency keys of the events in it. */
export interface MetaRequest {
  body: string;
  keys: string[];
}

export interface SendReport {
  /** Keys of events in requests that were finally answered 200. */
  acked: Set<string>;
  /** Answers by status code, retried ones included; 0 counts transport errors (refused, reset, timed out). */
  answers: Map<number, number>;
  /** Requests that got a 4xx (a bug: Meta would drop them) or were still failing at the deadline. */
  failed: Array<{ request: MetaRequest; status: number }>;
}

const text = (id: string) => ({ from: '16505551234', id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: `chaos ${id}` } });

function metaBody(ids: string[]): MetaRequest {
  const body = {
    object: 'whatsapp_business_account',
    entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '1' }, messages: ids.map(text) } }] }],
  };
  return { body: JSON.stringify(body), keys: ids.map((id) => `meta:msg:${id}`) };
}

/**
 * What a provider sends on a busy day: mostly single messages, some batches of 20, and
 * redeliveries of requests sent a little earlier (byte for byte, as Meta retries).
 */
export function mixedRequests(count: number, prefix = randomUUID().slice(0, 8)): MetaRequest[] {
  const requests: MetaRequest[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 5 === 3 && requests.length > 4) requests.push(requests[i - 4]);
    else if (i % 5 === 4) requests.push(metaBody(Array.from({ length: 20 }, (_, j) => `wamid.CHAOS.${prefix}.${i}.${j}`)));
    else requests.push(metaBody([`wamid.CHAOS.${prefix}.${i}`]));
  }
  return requests;
}

/**
 * Sends every request signed, `concurrency` at a time, retrying transport errors and 5xx with
 * backoff as Meta does (here until `deadlineMs`), so a request ends either answered 200 or
 * reported failed. `target()` is asked for the URL before each try: a test may move it.
 */
export async function sendLikeMeta(
  target: () => string,
  requests: MetaRequest[],
  { concurrency = 16, deadlineMs = 60_000, timeoutMs = 15_000, onAck }: { concurrency?: number; deadlineMs?: number; timeoutMs?: number; onAck?: (acked: number) => void } = {},
): Promise<SendReport> {
  const report: SendReport = { acked: new Set(), answers: new Map(), failed: [] };
  const until = Date.now() + deadlineMs;
  let next = 0;
  const count = (status: number) => report.answers.set(status, (report.answers.get(status) ?? 0) + 1);
  const sendOne = async (request: MetaRequest) => {
    for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
      let status = 0;
      try {
        const res = await fetch(`${target()}/webhook/meta`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(request.body) },
          body: request.body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 0;
      }
      count(status);
      if (status === 200) {
        for (const key of request.keys) report.acked.add(key);
        onAck?.(report.acked.size);
        return;
      }
      if ((status >= 400 && status < 500) || Date.now() + delay > until) {
        report.failed.push({ request, status });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests.length) await sendOne(requests[next++]);
    }),
  );
  return report;
}
