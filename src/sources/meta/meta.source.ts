import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import type { TenantCredentials } from '../tenant-credentials.js';
import { MetaSettings } from './meta.settings.js';
import { parseMetaBody } from './meta.parser.js';
import type { JsonObject } from '../shared/payload-values.js';
import { checkMetaSignature, isMetaSignature } from './meta-signature.js';
import { CredentialedSource, type RequiredHeader, type Verification } from '../webhook-source.js';
import type { WebhookRequest } from '../webhook-request.js';

/** Meta's WhatsApp Cloud API: X-Hub-Signature-256 with the app secret. */
@Injectable()
export class MetaSource extends CredentialedSource {
  readonly name = 'meta';
  readonly detectedAs = 'meta' as const;
  readonly credentialVariable = 'WHATSAPP_APP_SECRET';

  constructor(private readonly config: MetaSettings) {
    super();
  }

  protected get credentials() {
    return this.config.WHATSAPP_APP_SECRET;
  }

  protected override requiredHeaders(): RequiredHeader[] {
    return [{ name: 'x-hub-signature-256', label: 'X-Hub-Signature-256', wellFormed: isMetaSignature }];
  }

  protected check(request: WebhookRequest, binding?: TenantCredentials): Verification {
    const failure = checkMetaSignature(request.rawBody, request.header('x-hub-signature-256'), binding?.credentials ?? this.credentials);
    if (failure) throw new SignatureError('X-Hub-Signature-256', failure);
    return { authenticated: true };
  }

  protected parseBody(body: JsonObject) {
    return parseMetaBody(body);
  }
}
