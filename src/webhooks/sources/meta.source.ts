import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import { AppConfig } from '../../config/app-config.js';
import { parseMetaBody } from '../../events/meta.parser.js';
import type { JsonObject } from '../../events/payload-values.js';
import { checkMetaSignature, isMetaSignature } from '../signatures.js';
import type { TenantBinding } from '../../tenants/tenants-file.js';
import { CredentialedSource, type InboundDelivery, type RequiredHeader, type Verification } from './webhook-source.js';

/** Meta's WhatsApp Cloud API: X-Hub-Signature-256 with the app secret. */
@Injectable()
export class MetaSource extends CredentialedSource {
  readonly name = 'meta';
  readonly shape = 'meta' as const;
  readonly credentialVariable = 'WHATSAPP_APP_SECRET';

  constructor(private readonly config: AppConfig) {
    super();
  }

  protected get credentials() {
    return this.config.WHATSAPP_APP_SECRET;
  }

  protected override requiredHeaders(): RequiredHeader[] {
    return [{ name: 'x-hub-signature-256', label: 'X-Hub-Signature-256', wellFormed: isMetaSignature }];
  }

  protected check(delivery: InboundDelivery, binding?: TenantBinding): Verification {
    const failure = checkMetaSignature(delivery.rawBody, delivery.header('x-hub-signature-256'), binding?.credentials ?? this.credentials);
    if (failure) throw new SignatureError('X-Hub-Signature-256', failure);
    return { authenticated: true };
  }

  protected parseBody(body: JsonObject) {
    return parseMetaBody(body);
  }
}
