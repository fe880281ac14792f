import { SignatureError } from '../../common/domain-errors.js';
import type { ShapeName } from '../../events/detect-provider.js';
import type { NormalizedEvent, ProviderName } from '../../events/normalized-event.js';
import type { JsonObject } from '../../events/payload-values.js';
import { JSON_BODY, type BodyFormat } from '../body-formats.js';
import type { WebhookAck, WebhookDelivery } from '../webhook-delivery.js';

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

  get hasCredential(): boolean {
    return this.credentials.length > 0;
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
    return this.hasCredential ? this.check(delivery) : { authenticated: false };
  }

  parse(delivery: InboundDelivery, verification: Verification): NormalizedEvent[] {
    const events = this.parseBody(delivery.body as JsonObject, verification, delivery);
    return verification.authenticated ? events.map((event) => ({ ...event, authenticated: true })) : events;
  }

  answer(ack: WebhookAck): AckAnswer {
    return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(ack) };
  }

  /** Throws SignatureError unless the delivery carries a valid signature made with a credential. */
  protected abstract check(delivery: InboundDelivery): Verification;
  protected abstract parseBody(body: JsonObject, verification: Verification, delivery: InboundDelivery): NormalizedEvent[];
}
