import { SignatureError } from '../../common/domain-errors.js';
import type { ShapeName } from '../../events/detect-provider.js';
import type { NormalizedEvent, ProviderName } from '../../events/normalized-event.js';
import type { JsonObject } from '../../events/payload-values.js';
import { JSON_BODY, type BodyFormat } from '../body-formats.js';
import type { TenantBinding } from '../../tenants/tenants-file.js';
import type { WebhookAck, WebhookDelivery } from '../webhook-delivery.js';
import { checkTenants, tenantOfBinding } from './tenant-check.js';

/** What a source's verifier and parser see of one POST to a webhook URL. */
export type InboundDelivery = WebhookDelivery;

/**
 * A header a source's credential travels in, checked before the body is read: absent, or not
 * `wellFormed`, it cannot prove anything, so the delivery is refused without reading its body.
 */
export interface RequiredHeader {
  /** Lower-case, as Node gives request headers. */
  name: string;
  /** As named in the 401 (e.g. `X-Hub-Signature-256`). */
  label: string;
  wellFormed?(value: string): boolean;
}

/** What verifying a delivery established. */
export interface Verification {
  /** The delivery proved its origin with a configured credential. */
  authenticated: boolean;
  /** A sender-chosen delivery id that the signature covers (Standard Webhooks `webhook-id`). */
  deliveryId?: string;
  /** The tenants its credential is bound to (TENANTS_FILE); absent: an environment credential, any tenant. */
  tenants?: readonly string[];
}

/** The 200 a source's provider expects for a stored delivery. */
export interface AckAnswer {
  contentType: string;
  body: string;
}

/**
 * A webhook source: a verifier plus a parser behind one interface, with what its provider
 * sends (body format, URL suffix) and expects back (the 200's body). Adding a provider means
 * one class like this (and its name in PROVIDER_NAMES); the ingress, the claim, the worker
 * and the operator API do not change.
 */
export interface WebhookSource {
  readonly name: ProviderName;
  /** The variables that hold its credentials, for messages to operators. */
  readonly credentialVariable: string;
  /** Whether a credential is configured; without one, deliveries are taken unauthenticated. */
  readonly hasCredential: boolean;
  readonly bodyFormat: BodyFormat;
  /** The body shape it parses (a body of another shape is refused as misrouted); null for non-JSON sources. */
  readonly shape: ShapeName | null;
  /** Whether its provider appends a segment to the URL (/webhook/<source>/<segment>). */
  readonly takesUrlSuffix: boolean;
  /** Why the source cannot verify anything with the configuration it has (checked at start when enabled); null when it can. */
  configurationProblem?(): string | null;
  /**
   * Throws SignatureError when the headers alone show that the delivery cannot prove its origin
   * (a credential header absent or malformed): called before the body is read.
   */
  checkHeaders(header: (name: string) => string | undefined): void;
  /** Throws SignatureError when the delivery does not prove its origin. */
  verify(delivery: InboundDelivery): Verification;
  /** The delivery's events, marked with what verification established. */
  parse(delivery: InboundDelivery, verification: Verification): NormalizedEvent[];
  answer(ack: WebhookAck): AckAnswer;
}

/**
 * What every source shares: without a credential it takes deliveries unauthenticated (the
 * production gate in WebhookSources decides whether it may); with one, `check` must pass.
 * Parsers leave `authenticated` false; the events of a verified delivery are marked here.
 * JSON in, the JSON acknowledgement out, unless a source says otherwise.
 */
export abstract class CredentialedSource implements WebhookSource {
  abstract readonly name: ProviderName;
  abstract readonly credentialVariable: string;
  abstract readonly shape: ShapeName | null;
  readonly bodyFormat: BodyFormat = JSON_BODY;
  readonly takesUrlSuffix: boolean = false;
  protected abstract readonly credentials: readonly unknown[];
  /** TENANTS_FILE's entries for this source: when there are any, they are its only credentials. */
  private bindings: readonly TenantBinding[] = [];

  get hasCredential(): boolean {
    return this.credentials.length > 0 || this.bindings.length > 0;
  }

  /** The environment credentials that TENANTS_FILE's entries replace (what start-up names as ignored). */
  get replacedCredentials(): readonly unknown[] {
    return this.credentials;
  }

  bindTenants(bindings: readonly TenantBinding[]): void {
    this.bindings = bindings;
  }

  /** Whether TENANTS_FILE binds this source's credentials (they then replace the environment's). */
  protected get hasTenantBindings(): boolean {
    return this.bindings.length > 0;
  }

  /** The headers every delivery must carry while a credential is configured; none by default (e.g. a key in the body). */
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

  verify(delivery: InboundDelivery): Verification {
    if (!this.hasCredential) return { authenticated: false };
    if (this.bindings.length === 0) return this.check(delivery);
    // Every entry is tried: a credential listed for several tenants may carry any of them.
    let matched: Verification | undefined;
    let failure: SignatureError | undefined;
    const tenants: string[] = [];
    for (const binding of this.bindings) {
      try {
        matched = this.check(delivery, binding);
        tenants.push(binding.tenant);
      } catch (error) {
        if (!(error instanceof SignatureError)) throw error;
        failure ??= error;
      }
    }
    if (matched === undefined) throw failure!;
    return { ...matched, tenants };
  }

  parse(delivery: InboundDelivery, verification: Verification): NormalizedEvent[] {
    const events = this.parseBody(delivery.body as JsonObject, verification, delivery);
    if (verification.tenants !== undefined) checkTenants(this.name, events, verification.tenants);
    return verification.authenticated ? events.map((event) => ({ ...event, authenticated: true })) : events;
  }

  /** The one tenant a verified credential is bound to, for sources whose body names none (WASender). */
  protected boundTenant(verification: Verification): string | undefined {
    return tenantOfBinding(verification);
  }

  answer(ack: WebhookAck): AckAnswer {
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(ack) };
  }

  /**
   * Throws SignatureError unless the delivery carries a valid signature made with a credential:
   * one of `binding`'s, or without one the environment's.
   */
  protected abstract check(delivery: InboundDelivery, binding?: TenantBinding): Verification;
  protected abstract parseBody(body: JsonObject, verification: Verification, delivery: InboundDelivery): NormalizedEvent[];
}
