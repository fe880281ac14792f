import { Inject, Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import { SOURCE_CONFIG, type TenantCredentials } from '../source-config.js';
import type { JsonObject } from '../shared/payload-values.js';
import { parseWasenderBody } from './wasender.parser.js';
import { checkSharedSecret } from '../shared/signatures.js';
import { CredentialedSource, type RequiredHeader, type Verification } from '../webhook-source.js';
import type { WebhookRequest } from '../webhook-request.js';

/** The settings this source reads (AppConfig has them: see SOURCE_CONFIG). */
export interface WasenderConfig {
  readonly WASENDER_WEBHOOK_SECRET: readonly string[];
  readonly WASENDER_TENANT?: string;
}

/** WASenderApi: the webhook secret itself in X-Webhook-Signature (WASender does not sign the body). */
@Injectable()
export class WasenderSource extends CredentialedSource {
  readonly name = 'wasender';
  readonly detectedAs = 'wasender' as const;
  readonly credentialVariable = 'WASENDER_WEBHOOK_SECRET';

  constructor(@Inject(SOURCE_CONFIG) private readonly config: WasenderConfig) {
    super();
  }

  protected get credentials() {
    return this.config.WASENDER_WEBHOOK_SECRET;
  }

  protected override requiredHeaders(): RequiredHeader[] {
    return [{ name: 'x-webhook-signature', label: 'X-Webhook-Signature' }];
  }

  protected check(request: WebhookRequest, binding?: TenantCredentials): Verification {
    const failure = checkSharedSecret(request.header('x-webhook-signature'), binding?.credentials ?? this.credentials);
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
