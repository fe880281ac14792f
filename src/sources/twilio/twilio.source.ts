import { Injectable, Logger } from '@nestjs/common';
import { SignatureError } from '../../common/domain-errors.js';
import type { TenantCredentials } from '../tenant-credentials.js';
import { TwilioSettings } from './twilio.settings.js';
import { twilioParams, type TwilioParams } from './twilio-params.js';
import { parseTwilioBody } from './twilio.parser.js';
import { FORM_BODY } from '../body-formats.js';
import { checkTwilioSignature } from './twilio-signature.js';
import { CredentialedSource, type AckAnswer, type RequiredHeader, type Verification } from '../webhook-source.js';
import type { WebhookRequest } from '../webhook-request.js';

/** An empty TwiML document: the 200 Twilio expects from a messaging webhook (no reply is sent). */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** What verifying a Twilio webhook request established, with the parameters it checked: the parser reads only these. */
export interface TwilioVerification extends Verification {
  params: TwilioParams;
}

/** I-Twilio-Idempotency-Token as Twilio sends it (a UUID-like id); anything else is not logged. */
const IDEMPOTENCY_TOKEN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The header when well formed, else null. It is not signed: it only correlates log lines, never decides anything. */
export function idempotencyTokenOf(header: string | undefined): string | null {
  return header !== undefined && IDEMPOTENCY_TOKEN.test(header) ? header : null;
}

/**
 * Twilio (WhatsApp and SMS): form posts signed with X-Twilio-Signature over the full public URL
 * Twilio called plus the sorted parameters, keyed by the Auth Token (or, with
 * X-Twilio-Webhooks-Signature-Settings, by a webhook SharedKey).
 */
@Injectable()
export class TwilioSource extends CredentialedSource {
  private readonly logger = new Logger('TwilioSource');
  readonly name = 'twilio';
  readonly detectedAs = null;
  override readonly bodyFormat = FORM_BODY;
  readonly credentialVariable = 'TWILIO_AUTH_TOKEN';

  constructor(private readonly config: TwilioSettings) {
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

  /**
   * Canonical parameters first (a repeated single-valued one is a 400 before any HMAC is
   * computed), then the signature over exactly those; the parser gets the same object back.
   */
  override verify(request: WebhookRequest): TwilioVerification {
    const params = twilioParams(request.body);
    return { ...super.verify({ ...request, body: params }), params };
  }

  /** `request.body` is the canonical parameters here (see verify). */
  protected check(request: WebhookRequest, binding?: TenantCredentials): Verification {
    const failure = checkTwilioSignature(
      {
        url: `${this.config.PUBLIC_BASE_URL!.replace(/\/+$/, '')}${request.url}`,
        params: request.body as TwilioParams,
        signature: request.header('x-twilio-signature'),
        settings: request.header('x-twilio-webhooks-signature-settings'),
      },
      // A TENANTS_FILE entry holds that account's Auth Tokens.
      binding ? { authTokens: binding.credentials, sharedKeys: [] } : { authTokens: this.config.TWILIO_AUTH_TOKEN, sharedKeys: this.config.TWILIO_WEBHOOK_SHARED_KEY },
    );
    if (failure) throw new SignatureError('X-Twilio-Signature', failure);
    return { authenticated: true };
  }

  /**
   * Parses the parameters verify() checked, never the body again. Twilio sends the same
   * I-Twilio-Idempotency-Token on its retries of one request: logged with the event keys
   * (debug), it ties a retry's lines to the first attempt's. It is not covered by the
   * signature, so it never decides whether or how an event is stored.
   */
  protected parseBody(_body: unknown, verification: Verification, request: WebhookRequest) {
    const { params } = verification as Partial<TwilioVerification>;
    if (params === undefined) throw new Error('a Twilio webhook request is parsed only from the parameters verify() returned');
    const events = parseTwilioBody(params);
    const token = idempotencyTokenOf(request.header('i-twilio-idempotency-token'));
    if (token !== null) this.logger.debug(`Twilio request ${token}: ${events.map((event) => event.key).join(', ') || 'no event'}`);
    return events;
  }

  /**
   * An Auth Token belongs to the account: a TENANTS_FILE entry naming the AccountSid covers every
   * number of it (Twilio's tenant is `<AccountSid>:<business number>`).
   */
  override coversTenant(bound: string, tenant: string): boolean {
    return bound === tenant || (!bound.includes(':') && tenant.startsWith(`${bound}:`));
  }

  override answer(): AckAnswer {
    return { contentType: 'text/xml; charset=utf-8', body: EMPTY_TWIML };
  }
}
