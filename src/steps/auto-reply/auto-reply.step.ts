import { Injectable } from '@nestjs/common';
import { StepsSettings } from '../../outbound/steps.settings.js';
import type { NormalizedEvent } from '../../sources/shared/normalized-event.js';
import { isJsonObject, readString } from '../../sources/shared/payload-values.js';
import { WorkerStep, type EventStep, type StepContext } from '../../inbox/event-step.js';

export interface AutoReplyResult {
  /** The wamid the Cloud API gave the reply: its statuses will update its receipt (GET /deliveries/<outboundId>). */
  outboundId: string;
}

/**
 * The worked example of a custom step (docs/processing.md, "Your own steps"): answers each inbound Meta
 * message with AUTO_REPLY_TEXT through the WhatsApp Cloud API and stores the reply's id as
 * the step result. Off unless AUTO_REPLY_TEXT is set.
 *
 * The Cloud API takes no idempotency key. The step's key goes into biz_opaque_callback_data,
 * which Meta echoes in the reply's status webhooks, so the rare double send (a crash between
 * the API call and the step's record) can at least be recognised.
 */
@Injectable()
@WorkerStep({ name: 'auto-reply', order: 100 })
export class AutoReplyStep implements EventStep {
  constructor(private readonly config: StepsSettings) {}

  appliesTo(event: NormalizedEvent): boolean {
    return (
      this.config.AUTO_REPLY_TEXT !== undefined &&
      event.authenticated && // never reply to (and so spend money on) a message nobody proved came from Meta
      event.source === 'meta' &&
      event.kind === 'message' &&
      !event.fromMe &&
      event.sender !== null &&
      phoneNumberIdOf(event) !== null
    );
  }

  async run(event: NormalizedEvent, context: StepContext): Promise<AutoReplyResult> {
    const url = `${this.config.WHATSAPP_GRAPH_URL.replace(/\/+$/, '')}/${phoneNumberIdOf(event)}/messages`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.config.WHATSAPP_ACCESS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: event.sender,
        type: 'text',
        text: { body: this.config.AUTO_REPLY_TEXT },
        biz_opaque_callback_data: context.idempotencyKey,
      }),
      signal: AbortSignal.any([context.signal, AbortSignal.timeout(this.config.FORWARD_TIMEOUT_MS)]),
    });
    const answer: unknown = await response.json().catch(() => null);
    const outboundId = isJsonObject(answer) && Array.isArray(answer.messages) && isJsonObject(answer.messages[0])
      ? readString(answer.messages[0].id)
      : null;
    // Never the URL or the token in the error: both end up in logs and last_error.
    if (!response.ok || outboundId === null) throw new Error(`Cloud API answered ${response.status} without a message id`);
    return { outboundId };
  }
}

function phoneNumberIdOf(event: NormalizedEvent): string | null {
  const metadata = event.raw.metadata;
  return isJsonObject(metadata) ? readString(metadata.phone_number_id) : null;
}
