import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { UnauthorizedError } from '../common/domain-errors.js';
import { safeEqual } from '../common/safe-equal.js';
import { TrustSettings } from '../sources/trust.settings.js';

/** With INSPECTION_API_KEY set, the inspection API wants `Authorization: Bearer <key>`, any of the configured keys (rotation). */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly config: TrustSettings) {}

  canActivate(context: ExecutionContext): boolean {
    const keys = this.config.INSPECTION_API_KEY;
    if (keys.length === 0) return true;
    const header = context.switchToHttp().getRequest<Request>().header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !keys.map((key) => safeEqual(match[1], key)).includes(true)) {
      throw new UnauthorizedError(match ? 'the bearer token is not the inspection API key' : 'send Authorization: Bearer <INSPECTION_API_KEY>');
    }
    return true;
  }
}
