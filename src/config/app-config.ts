import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

const toBoolean = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? { true: true, '1': true, false: false, '0': false }[value.trim().toLowerCase()] ?? value : value;
const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value);
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Every setting the service reads, validated once at boot: a wrong value stops the start
 * with a message naming the variable. Inject this class to read configuration.
 */
export class AppConfig {
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgresql:// connection URL' })
  DATABASE_URL: string;

  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer' })
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(1)
  WHATSAPP_VERIFY_TOKEN?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'WHATSAPP_APP_SECRET is too short to be a Meta app secret' })
  WHATSAPP_APP_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'WASENDER_WEBHOOK_SECRET must be at least 8 characters' })
  WASENDER_WEBHOOK_SECRET?: string;

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
  return config;
}
