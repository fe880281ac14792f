import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import { checkStandardWebhook, signingKey } from '../../common/standard-webhooks.js';
import type { TenantCredentials } from '../tenant-credentials.js';
import { GenericSettings } from './generic.settings.js';
import { parseGenericBody } from './generic.parser.js';
import type { JsonObject } from '../shared/payload-values.js';
import { CredentialedSource, type RequiredHeader, type Verification } from '../webhook-source.js';
import type { WebhookRequest } from '../webhook-request.js';

/** The generic flat shape, signed with Standard Webhooks (webhook-id, -timestamp, -signature). */
@Injectable()
export class GenericSource extends CredentialedSource {
  readonly name = 'generic';
  readonly detectedAs = 'generic' as const;
  readonly credentialVariable = 'GENERIC_WEBHOOK_SECRET';
  protected readonly credentials: Buffer[];

  constructor(private readonly config: GenericSettings) {
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

  protected check(request: WebhookRequest, binding?: TenantCredentials): Verification {
    const headers = {
      id: request.header('webhook-id'),
      timestamp: request.header('webhook-timestamp'),
      signature: request.header('webhook-signature'),
    };
    const failure = checkStandardWebhook(binding?.credentials.map(signingKey) ?? this.credentials, headers, request.rawBody, this.config.WEBHOOK_TOLERANCE_SECONDS);
    if (failure) throw new SignatureError(failure.header, failure.reason);
    // The signature covers the webhook-id: it may key an event whose body has no id.
    return { authenticated: true, webhookId: headers.id };
  }

  protected parseBody(body: JsonObject, verification: Verification) {
    return parseGenericBody(body, verification.webhookId);
  }
}
