/**
 * Errors the domain raises; DomainExceptionFilter maps each to one HTTP answer, so
 * services never speak HTTP.
 */
export abstract class DomainError extends Error {
  override get name(): string {
    return this.constructor.name;
  }
}

/** The webhook request is not something we can take events from (400). */
export class InvalidPayloadError extends DomainError {}

/**
 * A webhook request did not prove its origin (401): its signature header is missing, malformed, too
 * old or wrong. Never carries the secret or the signature.
 */
export class SignatureError extends DomainError {
  constructor(
    readonly header: string,
    readonly reason: 'missing' | 'malformed' | 'expired' | 'mismatch',
  ) {
    super(`${header} ${REASON_TEXT[reason]}`);
  }
}

/**
 * A webhook request proved its origin with a credential that TENANTS_FILE binds to other tenants than
 * one of its events names (401). Names the tenant, never the credential.
 */
export class TenantNotBoundError extends SignatureError {
  constructor(source: string, tenant: string | null) {
    super('credential', 'mismatch');
    this.message = tenant === null
      ? `the ${source} webhook request names no tenant, and its credential is bound to tenants in TENANTS_FILE: it authenticates only events of those tenants`
      : `the ${source} webhook request is for tenant ${JSON.stringify(tenant)}, and its credential is not bound to tenant ${JSON.stringify(tenant)} in TENANTS_FILE`;
  }
}

const REASON_TEXT = {
  missing: 'is missing',
  malformed: 'is malformed',
  expired: 'is outside the accepted window (WEBHOOK_TOLERANCE_SECONDS)',
  mismatch: 'does not match: the body was not signed with a configured secret (or was changed after signing)',
};

/** The webhook request belongs to a webhook source this service does not take (403): see WEBHOOK_PROVIDERS. */
export class SourceDisabledError extends DomainError {}

/** The events could not be stored; the source must retry (503). */
export class StoreUnavailableError extends DomainError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Too many webhook requests are waiting to be stored: shed at once, the source retries (503). */
export class OverloadedError extends DomainError {}

/** Meta's subscription handshake did not present the configured verify token (403). */
export class VerificationFailedError extends DomainError {}

/** A query parameter the validation pipe cannot judge alone is wrong (400), e.g. a forged cursor. */
export class InvalidQueryError extends DomainError {}

/** The caller did not present the inspection API key (401). */
export class UnauthorizedError extends DomainError {}

/** No such record (404). */
export class NotFoundError extends DomainError {}

/** The request conflicts with the record's current state (409). */
export class ConflictError extends DomainError {}

/** The request body is larger than WEBHOOK_BODY_LIMIT (413). */
export class PayloadTooLargeError extends DomainError {}

/** The body's media type, charset or content encoding is not one we read (415). */
export class UnsupportedMediaTypeError extends DomainError {}
