import { ArgumentsHost, Catch, HttpStatus } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Response } from 'express';
import {
  ConflictError,
  DomainError,
  InvalidPayloadError,
  InvalidQueryError,
  NotFoundError,
  OverloadedError,
  SignatureError,
  SourceDisabledError,
  StoreUnavailableError,
  UnauthorizedError,
  VerificationFailedError,
} from './domain-errors.js';

const STATUS_BY_ERROR = new Map<Function, HttpStatus>([
  [InvalidPayloadError, HttpStatus.BAD_REQUEST],
  [InvalidQueryError, HttpStatus.BAD_REQUEST],
  [SignatureError, HttpStatus.UNAUTHORIZED],
  [VerificationFailedError, HttpStatus.FORBIDDEN],
  [SourceDisabledError, HttpStatus.FORBIDDEN],
  [StoreUnavailableError, HttpStatus.SERVICE_UNAVAILABLE],
  [OverloadedError, HttpStatus.SERVICE_UNAVAILABLE],
  [UnauthorizedError, HttpStatus.UNAUTHORIZED],
  [NotFoundError, HttpStatus.NOT_FOUND],
  [ConflictError, HttpStatus.CONFLICT],
]);

/** The one place where domain errors become HTTP answers; everything else keeps Nest's handling. */
@Catch()
export class DomainExceptionFilter extends BaseExceptionFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    if (!(exception instanceof DomainError)) return super.catch(exception, host);
    const status = STATUS_BY_ERROR.get(exception.constructor) ?? HttpStatus.INTERNAL_SERVER_ERROR;
    const response = host.switchToHttp().getResponse<Response>();
    if (status === HttpStatus.SERVICE_UNAVAILABLE) response.setHeader('Retry-After', '5');
    if (exception instanceof UnauthorizedError) response.setHeader('WWW-Authenticate', 'Bearer');
    response.status(status).json({ statusCode: status, error: HttpStatus[status], message: exception.message });
  }
}
