import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Agent, request, type Dispatcher } from 'undici';
import { signingKey } from '../../common/standard-webhooks.js';
import { AppConfig } from '../../config/app-config.js';
import type { NormalizedEvent } from '../../events/normalized-event.js';
import { RetryLaterError, WorkerStep, type EventStep, type StepContext } from '../../worker/event-step.js';
import { excerpt, readBounded } from './bounded-body.js';
import { buildForwardRequest, retryAfterMs } from './forward-request.js';

/**
 * POSTs every event to FORWARD_URL: with this step alone the service is a deduplicating relay
 * in front of an existing bot backend. 2xx is success; anything else, or no answer within
 * FORWARD_TIMEOUT_MS, fails the attempt (retried with backoff, honouring Retry-After).
 * Errors never include the URL, which may carry credentials.
 *
 * Sent with undici's `request` over one keep-alive agent, not `fetch`: fetch's web streams and
 * signals cost about four times its CPU per request (bench/README.md), paid once per event.
 */
@Injectable()
@WorkerStep({ name: 'forward', order: 20 })
export class ForwardStep implements EventStep, OnApplicationShutdown {
  private readonly keys: Buffer[];
  private readonly agent = new Agent();

  constructor(private readonly config: AppConfig) {
    this.keys = config.FORWARD_SECRET.map(signingKey);
  }

  appliesTo(): boolean {
    return this.config.FORWARD_URL !== undefined;
  }

  async run(event: NormalizedEvent, context: StepContext): Promise<{ status: number }> {
    const { body, headers } = buildForwardRequest(event, context, this.keys);
    const timeout = AbortSignal.timeout(this.config.FORWARD_TIMEOUT_MS);
    let response: Dispatcher.ResponseData;
    let answer: { text: string; truncated: boolean };
    try {
      // No redirect is followed: a 3xx is an answer like any other non-2xx.
      response = await request(this.config.FORWARD_URL!, { method: 'POST', headers, body, dispatcher: this.agent, signal: AbortSignal.any([context.signal, timeout]) });
      answer = await readBounded(response.body); // read to its end (so the connection is reused), but never more than 64 KiB
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      if (timeout.aborted) throw new Error(`FORWARD_URL did not answer within ${this.config.FORWARD_TIMEOUT_MS} ms`);
      const failure = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
      throw new Error(`FORWARD_URL unreachable: ${failure.code ?? failure.cause?.code ?? failure.message}`);
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return { status: response.statusCode };
    const said = excerpt(answer.text);
    const message = `FORWARD_URL answered ${response.statusCode}${said === '' ? '' : `: ${said}`}${answer.truncated ? ' (answer cut at 64 KiB)' : ''}`;
    const retryAfter = response.headers['retry-after'];
    const wait = retryAfterMs(Array.isArray(retryAfter) ? retryAfter[0] : (retryAfter ?? null));
    throw wait === undefined ? new Error(message) : new RetryLaterError(`${message} (Retry-After ${wait} ms)`, wait);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.close();
  }
}
