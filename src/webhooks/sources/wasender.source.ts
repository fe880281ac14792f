import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import { AppConfig } from '../../config/app-config.js';
import type { JsonObject } from '../../events/payload-values.js';
import { parseWasenderBody } from '../../events/wasender.parser.js';
import { checkSharedSecret } from '../signatures.js';
import type { TenantBinding } from '../../tenants/tenants-file.js';
import { CredentialedSource, type InboundDelivery, type RequiredHeader, type Verification } from './webhook-source.js';

/** WASenderApi: the webhook secret itself in X-Webhook-Signature (WASender does not sign the body). */
@Injectable()
export class WasenderSource extends CredentialedSource {
  readonly name = 'wasender';
  readonly shape = 'wasender' as const;
  readonly credentialVariable = 'WASENDER_WEBHOOK_SECRET';

  constructor(private readonly config: AppConfig) {
    super();
  }

  protected get credentials() {
    return this.config.WASENDER_WEBHOOK_SECRET;
  }

  protected override requiredHeaders(): RequiredHeader[] {
    return [{ name: 'x-webhook-signature', label: 'X-Webhook-Signature' }];
  }

  protected check(delivery: InboundDelivery, binding?: TenantBinding): Verification {
    const failure = checkSharedSecret(delivery.header('x-webhook-signature'), binding?.credentials ?? this.credentials);
    if (failure) throw new SignatureError('X-Webhook-Signature', failure);
    return { authenticated: true };
  }

  /**
   * WASender's body names no business number: the tenant is the one TENANTS_FILE binds the
   * secret to, else WASENDER_TENANT when configured.
   */
  protected parseBody(body: JsonObject, verification: Verification) {
    const events = parseWasenderBody(body);
    const tenant = this.boundTenant(verification) ?? this.config.WASENDER_TENANT;
    return tenant === undefined ? events : events.map((event) => ({ ...event, tenant }));
  }
}
