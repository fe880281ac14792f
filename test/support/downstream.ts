import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
  /** The status it was answered with; undefined while (or if forever) unanswered. */
  status?: number;
}

/** What to answer the n-th request (1-based); `hang` never answers. */
export type Reply = { status: number; delayMs?: number; body?: unknown; headers?: Record<string, string> } | 'hang';

export interface Downstream {
  url: string;
  requests: ReceivedRequest[];
  /** Requests carrying this Idempotency-Key. */
  byKey(key: string): ReceivedRequest[];
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP server on loopback standing in for a bot backend or the Cloud API. */
export async function startDownstream(reply: (n: number, req: ReceivedRequest) => Reply = () => ({ status: 200 })): Promise<Downstream> {
  const requests: ReceivedRequest[] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      requests.push(received);
      waiters.forEach((w) => w());
      const answer = reply(requests.length, received);
      if (answer === 'hang') return;
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body ?? { ok: answer.status < 300 }));
        received.status = answer.status;
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    byKey: (key) => requests.filter((r) => r.headers['idempotency-key'] === key),
    waitFor: (count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`waited ${timeoutMs} ms for ${count} requests, got ${requests.length}`)), timeoutMs);
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          resolve();
        };
        waiters.push(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function isSignedWith(secret: string, request: ReceivedRequest): boolean {
  const expected = `sha256=${createHmac('sha256', secret).update(Buffer.from(request.body, 'utf8')).digest('hex')}`;
  return request.headers['x-signature-256'] === expected;
}
