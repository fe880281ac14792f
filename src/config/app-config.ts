import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';
import { emptyToUndefined, toBoolean, toInt } from './config-transforms.js';
import { ProcessingSettings } from './processing-settings.js';
import { WHSEC_PATTERN } from './trust-settings.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting the service reads, validated once at boot: a wrong value stops the start
 * with a message naming the variable. Inject this class to read configuration. The worker's,
 * steps' and retention's settings are declared in ProcessingSettings, the webhook sources'
 * and the operator API's credentials in TrustSettings.
 */
export class AppConfig extends ProcessingSettings {
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgresql:// connection URL' })
  DATABASE_URL: string;

  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer' })
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  @Transform(toBoolean)
  @IsBoolean({ message: 'MIGRATE_ON_START must be true or false' })
  MIGRATE_ON_START = true;

  /** Connections per process; claims from concurrent requests share them in batches. */
  @Transform(toInt)
  @IsInt({ message: 'DB_POOL_SIZE must be an integer' })
  @Min(2)
  @Max(200)
  DB_POOL_SIZE = 10;

  /** Upper bound for one database statement (the claim included), in milliseconds. */
  @Transform(toInt)
  @IsInt({ message: 'DB_STATEMENT_TIMEOUT_MS must be an integer' })
  @Min(100)
  DB_STATEMENT_TIMEOUT_MS = 5000;

  /** Largest accepted request body; must admit Meta's documented 3 MB. */
  @Matches(/^\d+(kb|mb)$/i, { message: 'WEBHOOK_BODY_LIMIT must look like 4mb or 512kb' })
  WEBHOOK_BODY_LIMIT = '4mb';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  NODE_ENV?: string;
}

export function validateConfig(env: Record<string, unknown>): AppConfig {
  const config = plainToInstance(AppConfig, env, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const lines = errors.flatMap((e) =>
      Object.values(e.constraints ?? { invalid: `${e.property} is invalid` }).map((m) =>
        m.startsWith(e.property) ? m : `${e.property}: ${m}`,
      ),
    );
    throw new Error(`Invalid configuration:\n  - ${lines.join('\n  - ')}`);
  }
  const conflicts = crossFieldErrors(config);
  if (conflicts.length > 0) throw new Error(`Invalid configuration:\n  - ${conflicts.join('\n  - ')}`);
  return config;
}

function crossFieldErrors(config: AppConfig): string[] {
  const errors: string[] = [];
  if (config.AUTO_REPLY_TEXT && !config.WHATSAPP_ACCESS_TOKEN) errors.push('AUTO_REPLY_TEXT needs WHATSAPP_ACCESS_TOKEN');
  for (const secret of config.FORWARD_SECRET) {
    if (secret.startsWith('whsec_') && !WHSEC_PATTERN.test(secret)) errors.push('FORWARD_SECRET: a whsec_ secret must be whsec_ followed by base64');
  }
  if (config.RETRY_MAX_MS < config.RETRY_BASE_MS) errors.push('RETRY_MAX_MS must not be below RETRY_BASE_MS');
  // An attempt is aborted when its lease nears expiry; a forward must be able to time out first.
  if (config.FORWARD_TIMEOUT_MS >= attemptDeadlineMs(config.LEASE_SECONDS)) {
    errors.push(`FORWARD_TIMEOUT_MS must be below ${attemptDeadlineMs(config.LEASE_SECONDS)} (80 % of LEASE_SECONDS)`);
  }
  return errors;
}

/** How long one attempt may run: its lease minus a margin to record the outcome before anyone may take over. */
export function attemptDeadlineMs(leaseSeconds: number): number {
  return Math.floor(leaseSeconds * 800);
}
