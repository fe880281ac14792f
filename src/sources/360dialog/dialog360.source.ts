import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import type { TenantCredentials } from '../tenant-credentials.js';
import { Dialog360Settings } from './dialog360.settings.js';
import { parseMetaBody } from '../meta/meta.parser.js';
import type { JsonObject } from '../shared/payload-values.js';
import { checkSharedSecret } from '../shared/signatures.js';
import { check360dialogSignature, is360dialogSignature } from './dialog360-signature.js';
import { CredentialedSource, type RequiredHeader, type Verification } from '../webhook-source.js';
import type { WebhookRequest } from '../webhook-request.js';

/**
 * 360dialog: Meta's Cloud API payloads, keyed in 360dialog's own namespace. Two credentials,
 * each checked when configured: x-360dialog-signature (HMAC-SHA256 of the body with the
 * partner's platform secret) and the custom header a partner sets on its webhook URL.
 */
@Injectable()
export class Dialog360Source extends CredentialedSource {
  readonly name = '360dialog';
  readonly detectedAs = 'meta' as const;
  readonly credentialVariable = 'DIALOG360_PLATFORM_SECRET or DIALOG360_HEADER_SECRET';

  constructor(private readonly config: Dialog360Settings) {
    super();
  }

  protected get credentials() {
    return [...this.config.DIALOG360_PLATFORM_SECRET, ...this.config.DIALOG360_HEADER_SECRET];
  }

  /** Each configured credential's header: the signature, the custom header, or both. */
  protected override requiredHeaders(): RequiredHeader[] {
    const { DIALOG360_PLATFORM_SECRET: platformSecrets, DIALOG360_HEADER_NAME: headerName } = this.config;
    // TENANTS_FILE's entries for 360dialog hold header credentials (see check).
    const headerRequired = this.hasTenantBindings || this.config.DIALOG360_HEADER_SECRET.length > 0;
    return [
      ...(platformSecrets.length > 0 ? [{ name: 'x-360dialog-signature', label: 'x-360dialog-signature', wellFormed: is360dialogSignature }] : []),
      ...(headerRequired ? [{ name: headerName.toLowerCase(), label: headerName }] : []),
    ];
  }

  protected check(request: WebhookRequest, binding?: TenantCredentials): Verification {
    const { DIALOG360_PLATFORM_SECRET: platformSecrets, DIALOG360_HEADER_NAME: headerName } = this.config;
    // The platform secret is the partner's, for every channel; a TENANTS_FILE entry holds one channel's header credential.
    const headerSecrets = binding?.credentials ?? this.config.DIALOG360_HEADER_SECRET;
    if (platformSecrets.length > 0) {
      const failure = check360dialogSignature(request.rawBody, request.header('x-360dialog-signature'), platformSecrets);
      if (failure) throw new SignatureError('x-360dialog-signature', failure);
    }
    if (headerSecrets.length > 0) {
      const failure = checkSharedSecret(request.header(headerName.toLowerCase()), headerSecrets);
      if (failure) throw new SignatureError(headerName, failure);
    }
    return { authenticated: true };
  }

  override get replacedCredentials() {
    return this.config.DIALOG360_HEADER_SECRET;
  }

  protected parseBody(body: JsonObject) {
    return parseMetaBody(body, '360dialog');
  }
}
