import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import { checkStandardWebhook, signingKey } from '../../common/standard-webhooks.js';
import { AppConfig } from '../../config/app-config.js';
import { parseGenericBody } from '../../events/generic.parser.js';
import type { JsonObject } from '../../events/payload-values.js';
import { withVerification, type InboundDelivery, type Verification, type WebhookSource } from './webhook-source.js';

/** The generic flat shape, signed with Standard Webhooks (webhook-id, -timestamp, -signature). */
@Injectable()
export class GenericSource implements WebhookSource {
  readonly name = 'generic';
  readonly credentialVariable = 'GENERIC_WEBHOOK_SECRET';
  private readonly keys: Buffer[];

  constructor(private readonly config: AppConfig) {
    this.keys = config.GENERIC_WEBHOOK_SECRET.map(signingKey);
  }

  get hasCredential(): boolean {
    return this.keys.length > 0;
  }

  verify(delivery: InboundDelivery): Verification {
    if (!this.hasCredential) return { authenticated: false };
    const headers = {
      id: delivery.header('webhook-id'),
      timestamp: delivery.header('webhook-timestamp'),
      signature: delivery.header('webhook-signature'),
    };
    const failure = checkStandardWebhook(this.keys, headers, delivery.rawBody, this.config.WEBHOOK_TOLERANCE_SECONDS);
    if (failure) throw new SignatureError(failure.header, failure.reason);
    return { authenticated: true, deliveryId: headers.id };
  }

  parse(body: JsonObject, verification: Verification) {
    return withVerification(parseGenericBody(body, verification.deliveryId), verification);
  }
}
