import { Injectable } from '@nestjs/common';
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
 */
@Injectable()
@WorkerStep({ name: 'forward', order: 20 })
export class ForwardStep implements EventStep {
  private readonly keys: Buffer[];

  constructor(private readonly config: AppConfig) {
    this.keys = config.FORWARD_SECRET.map(signingKey);
  }

  appliesTo(): boolean {
    return this.config.FORWARD_URL !== undefined;
  }

  async run(event: NormalizedEvent, context: StepContext): Promise<{ status: number }> {
    const { body, headers } = buildForwardRequest(event, context, this.keys);
    const timeout = AbortSignal.timeout(this.config.FORWARD_TIMEOUT_MS);
    let response: Response;
    let answer: { text: string; truncated: boolean };
    try {
      response = await fetch(this.config.FORWARD_URL!, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.any([context.signal, timeout]),
      });
      answer = await readBounded(response); // read to its end (so the connection is reused), but never more than 64 KiB
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      if (timeout.aborted) throw new Error(`FORWARD_URL did not answer within ${this.config.FORWARD_TIMEOUT_MS} ms`);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`FORWARD_URL unreachable: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
    if (response.status >= 200 && response.status < 300) return { status: response.status };
    const said = excerpt(answer.text);
    const message = `FORWARD_URL answered ${response.status}${said === '' ? '' : `: ${said}`}${answer.truncated ? ' (answer cut at 64 KiB)' : ''}`;
    const wait = retryAfterMs(response.headers.get('retry-after'));
    throw wait === undefined ? new Error(message) : new RetryLaterError(`${message} (Retry-After ${wait} ms)`, wait);
  }
}
