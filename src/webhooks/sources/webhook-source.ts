import type { NormalizedEvent, ProviderName } from '../../events/normalized-event.js';
import type { JsonObject } from '../../events/payload-values.js';

/** What a source's verifier sees of one POST to a webhook URL. */
export interface InboundDelivery {
  /** The exact request bytes: signatures are computed over these. */
  rawBody: Buffer;
  header(name: string): string | undefined;
}

/** What verifying a delivery established. */
export interface Verification {
  /** The delivery proved its origin with a configured credential. */
  authenticated: boolean;
  /** A sender-chosen delivery id that the signature covers (Standard Webhooks `webhook-id`). */
  deliveryId?: string;
}

/**
 * A webhook source: a verifier plus a parser behind one interface. Adding a provider means
 * one class like this (and its name in PROVIDER_NAMES); the controller, the claim, the worker
 * and the operator API do not change.
 */
export interface WebhookSource {
  readonly name: ProviderName;
  /** The variable that holds its credentials, for messages to operators. */
  readonly credentialVariable: string;
  /** Whether a credential is configured; without one, deliveries are taken unauthenticated. */
  readonly hasCredential: boolean;
  /** Throws SignatureError when the delivery does not prove its origin. */
  verify(delivery: InboundDelivery): Verification;
  /** The delivery's events, marked with what verification established. */
  parse(body: JsonObject, verification: Verification): NormalizedEvent[];
}

/**
 * What every source shares: without a credential it takes deliveries unauthenticated (the
 * production gate in WebhookSources decides whether it may); with one, `check` must pass.
 * Parsers leave `authenticated` false; the events of a verified delivery are marked here.
 */
export abstract class CredentialedSource implements WebhookSource {
  abstract readonly name: ProviderName;
  abstract readonly credentialVariable: string;
  protected abstract readonly credentials: readonly unknown[];

  get hasCredential(): boolean {
    return this.credentials.length > 0;
  }

  verify(delivery: InboundDelivery): Verification {
    return this.hasCredential ? this.check(delivery) : { authenticated: false };
  }

  parse(body: JsonObject, verification: Verification): NormalizedEvent[] {
    const events = this.parseBody(body, verification);
    return verification.authenticated ? events.map((event) => ({ ...event, authenticated: true })) : events;
  }

  /** Throws SignatureError unless the delivery carries a valid signature made with a credential. */
  protected abstract check(delivery: InboundDelivery): Verification;
  protected abstract parseBody(body: JsonObject, verification: Verification): NormalizedEvent[];
}
