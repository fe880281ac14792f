import { Injectable } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import { AppConfig } from '../../config/app-config.js';
import type { JsonObject } from '../../events/payload-values.js';
import { parseTwilioBody } from '../../events/twilio.parser.js';
import { FORM_BODY } from '../body-formats.js';
import { checkTwilioSignature } from '../twilio-signature.js';
import { CredentialedSource, type AckAnswer, type InboundDelivery, type RequiredHeader, type Verification } from './webhook-source.js';

/** An empty TwiML document: the 200 Twilio expects from a messaging webhook (no reply is sent). */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/**
 * Twilio (WhatsApp and SMS): form posts signed with X-Twilio-Signature over the full public URL
 * Twilio called plus the sorted parameters, keyed by the Auth Token (or, with
 * X-Twilio-Webhooks-Signature-Settings, by a webhook SharedKey).
 */
@Injectable()
export class TwilioSource extends CredentialedSource {
  readonly name = 'twilio';
  readonly shape = null;
  override readonly bodyFormat = FORM_BODY;
  readonly credentialVariable = 'TWILIO_AUTH_TOKEN';

  constructor(private readonly config: AppConfig) {
    super();
  }

  protected get credentials() {
    return [...this.config.TWILIO_AUTH_TOKEN, ...this.config.TWILIO_WEBHOOK_SHARED_KEY];
  }

  /** Behind a proxy the service cannot know the URL Twilio signed: without PUBLIC_BASE_URL every signature would fail. */
  configurationProblem(): string | null {
    return this.hasCredential && this.config.PUBLIC_BASE_URL === undefined
      ? 'webhook source twilio needs PUBLIC_BASE_URL (the URL Twilio calls, without /webhook/twilio): Twilio signs the full public URL'
      : null;
  }

  /** Presence only: its well-formedness depends on the signature settings checkTwilioSignature reads. */
  protected override requiredHeaders(): RequiredHeader[] {
    return [{ name: 'x-twilio-signature', label: 'X-Twilio-Signature' }];
  }

  protected check(delivery: InboundDelivery): Verification {
    const failure = checkTwilioSignature(
      {
        url: `${this.config.PUBLIC_BASE_URL!.replace(/\/+$/, '')}${delivery.url}`,
        params: delivery.body as Record<string, string | string[]>,
        signature: delivery.header('x-twilio-signature'),
        settings: delivery.header('x-twilio-webhooks-signature-settings'),
      },
      { authTokens: this.config.TWILIO_AUTH_TOKEN, sharedKeys: this.config.TWILIO_WEBHOOK_SHARED_KEY },
    );
    if (failure) throw new SignatureError('X-Twilio-Signature', failure);
    return { authenticated: true };
  }

  protected parseBody(body: JsonObject) {
    return parseTwilioBody(body);
  }

  override answer(): AckAnswer {
    return { contentType: 'text/xml; charset=utf-8', body: EMPTY_TWIML };
  }
}
