import { Injectable } from '@nestjs/common';
import { InvalidPayloadError, SignatureError } from '../../common/domain-errors.js';
import type { TenantCredentials } from '../tenant-credentials.js';
import { EvolutionSettings } from './evolution.settings.js';
import { parseEvolutionBody } from './evolution.parser.js';
import { isJsonObject, type JsonObject } from '../shared/payload-values.js';
import { checkEvolutionApiKey } from './evolution-credential.js';
import { CredentialedSource, type Verification } from '../webhook-source.js';
import type { WebhookRequest } from '../webhook-request.js';

/**
 * Evolution API: it signs nothing, so the API key it puts in the body (`apikey`), or in a
 * header set on the webhook, is the credential. The parser leaves it out of every event.
 * With WEBHOOK_BY_EVENTS it appends the event to the URL: /webhook/evolution/messages-upsert.
 */
@Injectable()
export class EvolutionSource extends CredentialedSource {
  readonly name = 'evolution';
  readonly detectedAs = 'evolution' as const;
  readonly credentialVariable = 'EVOLUTION_API_KEY';
  override readonly takesUrlSuffix = true;

  constructor(private readonly config: EvolutionSettings) {
    super();
  }

  protected get credentials() {
    return this.config.EVOLUTION_API_KEY;
  }

  protected check(request: WebhookRequest, binding?: TenantCredentials): Verification {
    // The key may be in the body, so the body is decoded before verifying: it must be an object to hold one.
    const body = request.body;
    if (!isJsonObject(body)) throw new InvalidPayloadError('body is not a JSON object');
    const failure = checkEvolutionApiKey(body.apikey, request.header(this.config.EVOLUTION_HEADER_NAME.toLowerCase()), binding?.credentials ?? this.credentials);
    if (failure) throw new SignatureError(`apikey (or ${this.config.EVOLUTION_HEADER_NAME})`, failure);
    return { authenticated: true };
  }

  protected parseBody(body: JsonObject, _verification: Verification, request: WebhookRequest) {
    return parseEvolutionBody(body, request.urlSuffix || undefined);
  }
}
