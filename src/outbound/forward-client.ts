import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Agent, request, type Dispatcher } from 'undici';
import { signingKey } from '../common/standard-webhooks.js';
import type { NormalizedEvent } from '../sources/shared/normalized-event.js';
import { RetryLaterError } from '../queue/retry-policy.js';
import { excerpt, readBounded } from './bounded-body.js';
import { buildForwardRequest, retryAfterMs, type ForwardAttempt } from './forward-request.js';

/** Where one event goes: FORWARD_URL, or a configured destination. */
export interface ForwardTarget {
  url: string;
  /** Names the target in errors (`FORWARD_URL`, `destination crm`): never the URL, which may carry credentials. */
  label: string;
  timeoutMs: number;
  /** Signing keys (signingKey of each secret); none: unsigned. */
  keys: readonly Buffer[];
}

/** A target from its configuration: the secrets (Standard Webhooks `whsec_…` or plain) made signing keys once. */
export function forwardTarget(url: string, label: string, timeoutMs: number, secrets: readonly string[]): ForwardTarget {
  return { url, label, timeoutMs, keys: secrets.map(signingKey) };
}

/** Why a POST failed, for the retry and for whoever counts a target's failures. */
export class ForwardFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'status' | 'timeout' | 'unreachable',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ForwardFailure';
  }
}

/**
 * POSTs events (buildForwardRequest) over one keep-alive undici Agent, shared by every target.
 * 2xx is success; anything else, or no answer within the target's timeout, throws: a
 * ForwardFailure, or a RetryLaterError when the answer carried Retry-After. No redirect is
 * followed. undici's `request`, not `fetch`: fetch's web streams and signals cost about four
 * times its CPU per request (bench/README.md), paid once per event and target.
 */
@Injectable()
export class ForwardClient implements OnApplicationShutdown {
  private readonly agent = new Agent();

  async post(target: ForwardTarget, event: NormalizedEvent, at: ForwardAttempt, signal: AbortSignal): Promise<{ status: number }> {
    const { body, headers } = buildForwardRequest(event, at, target.keys);
    const timeout = AbortSignal.timeout(target.timeoutMs);
    let response: Dispatcher.ResponseData;
    let answer: { text: string; truncated: boolean };
    try {
      response = await request(target.url, { method: 'POST', headers, body, dispatcher: this.agent, signal: AbortSignal.any([signal, timeout]) });
      answer = await readBounded(response.body); // read to its end (so the connection is reused), but never more than 64 KiB
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (timeout.aborted) throw new ForwardFailure(`${target.label} did not answer within ${target.timeoutMs} ms`, 'timeout');
      const failure = error as { code?: string; message?: string; cause?: { code?: string; message?: string } };
      throw new ForwardFailure(`${target.label} unreachable: ${failure.code ?? failure.cause?.code ?? failure.message}`, 'unreachable');
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return { status: response.statusCode };
    const said = excerpt(answer.text);
    const message = `${target.label} answered ${response.statusCode}${said === '' ? '' : `: ${said}`}${answer.truncated ? ' (answer cut at 64 KiB)' : ''}`;
    const retryAfter = response.headers['retry-after'];
    const wait = retryAfterMs(Array.isArray(retryAfter) ? retryAfter[0] : (retryAfter ?? null));
    throw wait === undefined ? new ForwardFailure(message, 'status', response.statusCode) : new RetryLaterError(`${message} (Retry-After ${wait} ms)`, wait);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.close();
  }
}
