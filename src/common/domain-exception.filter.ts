import { ArgumentsHost, Catch } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Response } from 'express';
import { DomainError } from './domain-errors.js';
import { httpAnswerOf } from './http-answer.js';

/** Domain errors become HTTP answers here (and in the webhook ingress, through the same httpAnswerOf); everything else keeps Nest's handling. */
@Catch()
export class DomainExceptionFilter extends BaseExceptionFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    if (!(exception instanceof DomainError)) return super.catch(exception, host);
    const answer = httpAnswerOf(exception);
    const response = host.switchToHttp().getResponse<Response>();
    for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    response.status(answer.status).json(answer.body);
  }
}
