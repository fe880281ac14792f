import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import { checkStandardWebhook, signingKey } from '../../common/standard-webhooks.js';
import { AppConfig } from '../../config/app-config.js';
import { parseGenericBody } from '../../events/generic.parser.js';
import type { JsonObject } from '../../events/payload-values.js';
import type { TenantBinding } from '../../tenants/tenants-file.js';
import { CredentialedSource, type InboundDelivery, type RequiredHeader, type Verification } from './webhook-source.js';

/** The generic flat shape, signed with Standard Webhooks (webhook-id, -timestamp, -signature). */
@Injectable()
export class GenericSource extends CredentialedSource {
  readonly name = 'generic';
  readonly shape = 'generic' as const;
  readonly credentialVariable = 'GENERIC_WEBHOOK_SECRET';
  protected readonly credentials: Buffer[];

  constructor(private readonly config: AppConfig) {
    super();
    this.credentials = config.GENERIC_WEBHOOK_SECRET.map(signingKey);
  }

  /** The three Standard Webhooks headers; the timestamp in seconds, the signature at least one `v1,` item. */
  protected override requiredHeaders(): RequiredHeader[] {
    return [
      { name: 'webhook-id', label: 'webhook-id' },
      { name: 'webhook-timestamp', label: 'webhook-timestamp', wellFormed: (value) => /^\d{1,12}$/.test(value) },
      { name: 'webhook-signature', label: 'webhook-signature', wellFormed: (value) => value.split(' ').some((item) => item.startsWith('v1,')) },
    ];
  }

  protected check(delivery: InboundDelivery, binding?: TenantBinding): Verification {
    const headers = {
      id: delivery.header('webhook-id'),
      timestamp: delivery.header('webhook-timestamp'),
      signature: delivery.header('webhook-signature'),
    };
    const failure = checkStandardWebhook(binding?.credentials.map(signingKey) ?? this.credentials, headers, delivery.rawBody, this.config.WEBHOOK_TOLERANCE_SECONDS);
    if (failure) throw new SignatureError(failure.header, failure.reason);
    // The signature covers the webhook-id: it may key an event whose body has no id.
    return { authenticated: true, deliveryId: headers.id };
  }

  protected parseBody(body: JsonObject, verification: Verification) {
    return parseGenericBody(body, verification.deliveryId);
  }
}
