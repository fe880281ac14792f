import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import { AppConfig } from '../../config/app-config.js';
import type { JsonObject } from '../../events/payload-values.js';
import { parseWasenderBody } from '../../events/wasender.parser.js';
import { checkWasenderSignature } from '../signatures.js';
import { withVerification, type InboundDelivery, type Verification, type WebhookSource } from './webhook-source.js';

/** WASenderApi: the webhook secret itself in X-Webhook-Signature. */
@Injectable()
export class WasenderSource implements WebhookSource {
  readonly name = 'wasender';
  readonly credentialVariable = 'WASENDER_WEBHOOK_SECRET';

  constructor(private readonly config: AppConfig) {}

  get hasCredential(): boolean {
    return this.config.WASENDER_WEBHOOK_SECRET.length > 0;
  }

  verify(delivery: InboundDelivery): Verification {
    if (!this.hasCredential) return { authenticated: false };
    const failure = checkWasenderSignature(delivery.header('x-webhook-signature'), this.config.WASENDER_WEBHOOK_SECRET);
    if (failure) throw new SignatureError('X-Webhook-Signature', failure);
    return { authenticated: true };
  }

  parse(body: JsonObject, verification: Verification) {
    return withVerification(parseWasenderBody(body), verification);
  }
}
