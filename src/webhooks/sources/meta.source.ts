import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import { AppConfig } from '../../config/app-config.js';
import { parseMetaBody } from '../../events/meta.parser.js';
import type { JsonObject } from '../../events/payload-values.js';
import { checkMetaSignature } from '../signatures.js';
import { withVerification, type InboundDelivery, type Verification, type WebhookSource } from './webhook-source.js';

/** Meta's WhatsApp Cloud API: X-Hub-Signature-256 with the app secret. */
@Injectable()
export class MetaSource implements WebhookSource {
  readonly name = 'meta';
  readonly credentialVariable = 'WHATSAPP_APP_SECRET';

  constructor(private readonly config: AppConfig) {}

  get hasCredential(): boolean {
    return this.config.WHATSAPP_APP_SECRET.length > 0;
  }

  verify(delivery: InboundDelivery): Verification {
    if (!this.hasCredential) return { authenticated: false };
    const failure = checkMetaSignature(delivery.rawBody, delivery.header('x-hub-signature-256'), this.config.WHATSAPP_APP_SECRET);
    if (failure) throw new SignatureError('X-Hub-Signature-256', failure);
    return { authenticated: true };
  }

  parse(body: JsonObject, verification: Verification) {
    return withVerification(parseMetaBody(body), verification);
  }
}
