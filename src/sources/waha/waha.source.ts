import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import type { TenantCredentials } from '../tenant-credentials.js';
import { WahaSettings } from './waha.settings.js';
import type { JsonObject } from '../shared/payload-values.js';
import { parseWahaBody } from './waha.parser.js';
import { checkWahaSignature, isWahaHmac } from './waha-signature.js';
import { CredentialedSource, type RequiredHeader, type Verification } from '../webhook-source.js';
import type { WebhookRequest } from '../webhook-request.js';

/** WAHA (WhatsApp HTTP API): X-Webhook-Hmac, the hex HMAC-SHA512 of the body keyed by the webhook's hmac key. */
@Injectable()
export class WahaSource extends CredentialedSource {
  readonly name = 'waha';
  readonly detectedAs = 'waha' as const;
  readonly credentialVariable = 'WAHA_WEBHOOK_HMAC_KEY';

  constructor(private readonly config: WahaSettings) {
    super();
  }

  protected get credentials() {
    return this.config.WAHA_WEBHOOK_HMAC_KEY;
  }

  protected override requiredHeaders(): RequiredHeader[] {
    return [{ name: 'x-webhook-hmac', label: 'X-Webhook-Hmac', wellFormed: isWahaHmac }];
  }

  protected check(request: WebhookRequest, binding?: TenantCredentials): Verification {
    const failure = checkWahaSignature(
      request.rawBody,
      request.header('x-webhook-hmac'),
      request.header('x-webhook-hmac-algorithm'),
      binding?.credentials ?? this.credentials,
    );
    if (failure) throw new SignatureError('X-Webhook-Hmac', failure);
    return { authenticated: true };
  }

  protected parseBody(body: JsonObject) {
    return parseWahaBody(body);
  }
}
