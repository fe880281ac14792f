import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import { AppConfig } from '../../config/app-config.js';
import type { JsonObject } from '../../events/payload-values.js';
import { parseWahaBody } from '../../events/waha.parser.js';
import { checkWahaSignature, isWahaHmac } from '../waha-signature.js';
import type { TenantBinding } from '../../tenants/tenants-file.js';
import { CredentialedSource, type InboundDelivery, type RequiredHeader, type Verification } from './webhook-source.js';

/** WAHA (WhatsApp HTTP API): X-Webhook-Hmac, the hex HMAC-SHA512 of the body keyed by the webhook's hmac key. */
@Injectable()
export class WahaSource extends CredentialedSource {
  readonly name = 'waha';
  readonly shape = 'waha' as const;
  readonly credentialVariable = 'WAHA_WEBHOOK_HMAC_KEY';

  constructor(private readonly config: AppConfig) {
    super();
  }

  protected get credentials() {
    return this.config.WAHA_WEBHOOK_HMAC_KEY;
  }

  protected override requiredHeaders(): RequiredHeader[] {
    return [{ name: 'x-webhook-hmac', label: 'X-Webhook-Hmac', wellFormed: isWahaHmac }];
  }

  protected check(delivery: InboundDelivery, binding?: TenantBinding): Verification {
    const failure = checkWahaSignature(
      delivery.rawBody,
      delivery.header('x-webhook-hmac'),
      delivery.header('x-webhook-hmac-algorithm'),
      binding?.credentials ?? this.credentials,
    );
    if (failure) throw new SignatureError('X-Webhook-Hmac', failure);
    return { authenticated: true };
  }

  protected parseBody(body: JsonObject) {
    return parseWahaBody(body);
  }
}
