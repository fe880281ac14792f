import { SignatureError } from '../common/domain-errors.js';
import { JSON_BODY, type BodyFormat } from './body-formats.js';
import type { NormalizedEvent } from './shared/normalized-event.js';
import type { JsonObject } from './shared/payload-values.js';
import type { TenantCredentials } from './tenant-credentials.js';
import type { SourceName } from './source-registry.js';
import { checkTenants, tenantOfBinding } from './tenant-check.js';
import type { WebhookRequest } from './webhook-request.js';

/**
 * A header a source's credential travels in, checked before the body is read: absent, or not
 * `wellFormed`, it cannot prove anything, so the request is refused without reading its body.
 */
export interface RequiredHeader {
  /** Lower-case, as Node gives request headers. */
  name: string;
  /** As named in the 401 (e.g. `X-Hub-Signature-256`). */
  label: string;
  wellFormed?(value: string): boolean;
}

/** What verifying a webhook request established. */
export interface Verification {
  /** The request proved its origin with a configured credential. */
  authenticated: boolean;
  /** A sender-chosen request id that the signature covers (Standard Webhooks `webhook-id`). */
  webhookId?: string;
  /** The tenants its credential is bound to (TENANTS_FILE); absent: an environment credential, any tenant. */
  tenants?: readonly string[];
}

/** The 200 a source expects for a stored request. */
export interface AckAnswer {
  contentType: string;
  body: string;
}

/**
 * A webhook source: a verifier plus a parser behind one interface, with what the source
 * sends (body format, URL suffix) and expects back (the 200's body). Adding a source means one
 * folder with a class like this and its descriptor, and one line in the registry
 * (docs/adding-a-source.md); the ingress, the claim, the worker and the operator API do not change.
 */
export interface WebhookSource {
  readonly name: SourceName;
  /** The variables that hold its credentials, for messages to operators. */
  readonly credentialVariable: string;
  /** Whether a credential is configured; without one, webhook requests are taken unauthenticated. */
  readonly hasCredential: boolean;
  readonly bodyFormat: BodyFormat;
  /**
   * The source POST /webhook's detection gives its bodies to: itself, or the source whose bodies
   * it posts (360dialog posts Meta's). A body detected as another is refused as misrouted; null
   * for a source whose bodies are not JSON (Twilio's forms).
   */
  readonly detectedAs: SourceName | null;
  /** Whether the source appends a segment to the URL (/webhook/<source>/<segment>). */
  readonly takesUrlSuffix: boolean;
  /** Why the source cannot verify anything with the configuration it has (checked at start when enabled); null when it can. */
  configurationProblem?(): string | null;
  /**
   * Throws SignatureError when the headers alone show that the request cannot prove its origin
   * (a credential header absent or malformed): called before the body is read.
   */
  checkHeaders(header: (name: string) => string | undefined): void;
  /** Throws SignatureError when the request does not prove its origin. */
  verify(request: WebhookRequest): Verification;
  /** The request's events, marked with what verification established. */
  parse(request: WebhookRequest, verification: Verification): NormalizedEvent[];
  /** The 200's body for the ingress's acknowledgement (WebhookAck), in the format the source expects. */
  answer(ack: object): AckAnswer;
}

/**
 * What every source shares: without a credential it takes webhook requests unauthenticated (the
 * production gate in WebhookSources decides whether it may); with one, `check` must pass.
 * Parsers leave `authenticated` false; the events of a verified request are marked here.
 * JSON in, the JSON acknowledgement out, unless a source says otherwise.
 */
export abstract class CredentialedSource implements WebhookSource {
  abstract readonly name: SourceName;
  abstract readonly credentialVariable: string;
  abstract readonly detectedAs: SourceName | null;
  readonly bodyFormat: BodyFormat = JSON_BODY;
  readonly takesUrlSuffix: boolean = false;
  protected abstract readonly credentials: readonly unknown[];
  /** TENANTS_FILE's entries for this source: when there are any, they are its only credentials. */
  private bindings: readonly TenantCredentials[] = [];

  get hasCredential(): boolean {
    return this.credentials.length > 0 || this.bindings.length > 0;
  }

  /** The environment credentials that TENANTS_FILE's entries replace (what start-up names as ignored). */
  get replacedCredentials(): readonly unknown[] {
    return this.credentials;
  }

  bindTenants(bindings: readonly TenantCredentials[]): void {
    this.bindings = bindings;
  }

  /** Whether TENANTS_FILE binds this source's credentials (they then replace the environment's). */
  protected get hasTenantBindings(): boolean {
    return this.bindings.length > 0;
  }

  /** The headers every request must carry while a credential is configured; none by default (e.g. a key in the body). */
  protected requiredHeaders(): readonly RequiredHeader[] {
    return [];
  }

  checkHeaders(header: (name: string) => string | undefined): void {
    if (!this.hasCredential) return;
    for (const required of this.requiredHeaders()) {
      const value = header(required.name)?.trim();
      if (!value) throw new SignatureError(required.label, 'missing');
      if (required.wellFormed && !required.wellFormed(value)) throw new SignatureError(required.label, 'malformed');
    }
  }

  verify(request: WebhookRequest): Verification {
    if (!this.hasCredential) return { authenticated: false };
    if (this.bindings.length === 0) return this.check(request);
    // Every entry is tried: a credential listed for several tenants may carry any of them.
    let matched: Verification | undefined;
    let failure: SignatureError | undefined;
    const tenants: string[] = [];
    for (const binding of this.bindings) {
      try {
        matched = this.check(request, binding);
        tenants.push(binding.tenant);
      } catch (error) {
        if (!(error instanceof SignatureError)) throw error;
        failure ??= error;
      }
    }
    if (matched === undefined) throw failure!;
    return { ...matched, tenants };
  }

  parse(request: WebhookRequest, verification: Verification): NormalizedEvent[] {
    const events = this.parseBody(request.body as JsonObject, verification, request);
    if (verification.tenants !== undefined) checkTenants(this, events, verification.tenants);
    return verification.authenticated ? events.map((event) => ({ ...event, authenticated: true })) : events;
  }

  /**
   * Whether a TENANTS_FILE entry naming `bound` covers an event's tenant: the same name, unless
   * the source says more (Twilio: an account covers its numbers).
   */
  coversTenant(bound: string, tenant: string): boolean {
    return bound === tenant;
  }

  /** The one tenant a verified credential is bound to, for sources whose body names none (WASender). */
  protected boundTenant(verification: Verification): string | undefined {
    return tenantOfBinding(verification);
  }

  answer(ack: object): AckAnswer {
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(ack) };
  }

  /**
   * Throws SignatureError unless the request carries a valid signature made with a credential:
   * one of `binding`'s, or without one the environment's.
   */
  protected abstract check(request: WebhookRequest, binding?: TenantCredentials): Verification;
  protected abstract parseBody(body: JsonObject, verification: Verification, request: WebhookRequest): NormalizedEvent[];
}
