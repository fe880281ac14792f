import { Transform } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import { emptyToUndefined } from '../config-transforms.js';
import { Feature, Setting } from './setting.js';

/** Read by every feature that is stricter in production: trust, the operator API, logging, the embedded database. */
@Feature('Environment', 'Whether this is a production deployment.')
export class EnvironmentSettings {
  @Setting(
    '`production` (the Docker image) makes `DATABASE_URL`, `INSPECTION_API_KEY` and a credential for every enabled webhook source mandatory, and logs JSON even at a terminal',
  )
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  NODE_ENV?: string;
}
