import type { NormalizedEvent, ProviderName } from '../../events/normalized-event.js';
import type { JsonObject } from '../../events/payload-values.js';

/** One POST to a webhook URL, as a source sees it. */
export interface InboundDelivery {
  body: JsonObject;
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

/** Parsers leave `authenticated` false; the source that verified the delivery sets it. */
export function withVerification(events: NormalizedEvent[], { authenticated }: Verification): NormalizedEvent[] {
  return authenticated ? events.map((event) => ({ ...event, authenticated })) : events;
}
