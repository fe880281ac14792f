import { HttpStatus } from '@nestjs/common';
import {
  ConflictError,
  DomainError,
  InvalidPayloadError,
  InvalidQueryError,
  NotFoundError,
  OverloadedError,
  PayloadTooLargeError,
  SignatureError,
  SourceDisabledError,
  StoreUnavailableError,
  TenantNotBoundError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  VerificationFailedError,
} from './domain-errors.js';

const STATUS_BY_ERROR = new Map<Function, HttpStatus>([
  [InvalidPayloadError, HttpStatus.BAD_REQUEST],
  [InvalidQueryError, HttpStatus.BAD_REQUEST],
  [SignatureError, HttpStatus.UNAUTHORIZED],
  [TenantNotBoundError, HttpStatus.UNAUTHORIZED],
  [VerificationFailedError, HttpStatus.FORBIDDEN],
  [SourceDisabledError, HttpStatus.FORBIDDEN],
  [PayloadTooLargeError, HttpStatus.PAYLOAD_TOO_LARGE],
  [UnsupportedMediaTypeError, HttpStatus.UNSUPPORTED_MEDIA_TYPE],
  [StoreUnavailableError, HttpStatus.SERVICE_UNAVAILABLE],
  [OverloadedError, HttpStatus.SERVICE_UNAVAILABLE],
  [UnauthorizedError, HttpStatus.UNAUTHORIZED],
  [NotFoundError, HttpStatus.NOT_FOUND],
  [ConflictError, HttpStatus.CONFLICT],
]);

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: { statusCode: number; error: string; message: string };
}

/** The one mapping from a domain error to its HTTP answer: status, headers and the error body every route uses. */
export function httpAnswerOf(error: DomainError): HttpAnswer {
  const status = STATUS_BY_ERROR.get(error.constructor) ?? HttpStatus.INTERNAL_SERVER_ERROR;
  const headers: Record<string, string> = {};
  if (status === HttpStatus.SERVICE_UNAVAILABLE) headers['Retry-After'] = '5';
  if (error instanceof UnauthorizedError) headers['WWW-Authenticate'] = 'Bearer';
  return { status, headers, body: { statusCode: status, error: HttpStatus[status], message: error.message } };
}
