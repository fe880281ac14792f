/**
 * Errors the domain raises; DomainExceptionFilter maps each to one HTTP answer, so
 * services never speak HTTP.
 */
export abstract class DomainError extends Error {
  override get name(): string {
    return this.constructor.name;
  }
}

/** The delivery is not something we can take events from (400). */
export class InvalidPayloadError extends DomainError {}

/** A configured signature check failed (401). Never carries the secret or the signature. */
export class SignatureError extends DomainError {}

/** The events could not be stored; the provider must retry (503). */
export class StoreUnavailableError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Meta's subscription handshake did not present the configured verify token (403). */
export class VerificationFailedError extends DomainError {}
