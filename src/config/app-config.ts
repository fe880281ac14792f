import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

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

  /** Run the background worker in this process; `npm run start:worker` runs it alone. */
  @Transform(toBoolean)
  @IsBoolean({ message: 'WORKER_ENABLED must be true or false' })
  WORKER_ENABLED = true;

  /** Events one process works on at once. */
  @Transform(toInt)
  @IsInt({ message: 'WORKER_CONCURRENCY must be an integer' })
  @Min(1)
  @Max(1000)
  WORKER_CONCURRENCY = 16;

  /** The standalone worker (`npm run start:worker`) serves GET /metrics on this port when set. */
  @Transform(emptyToUndefined)
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'WORKER_METRICS_PORT must be an integer' })
  @Min(0)
  @Max(65535)
  WORKER_METRICS_PORT?: number;

  /**
   * Wake idle workers with LISTEN/NOTIFY. Turn off where a session cannot listen (PgBouncer in
   * transaction mode, the embedded database); the poll alone then finds new events.
   */
  @Transform(toBoolean)
  @IsBoolean({ message: 'WORKER_LISTEN must be true or false' })
  WORKER_LISTEN = true;

  /** How often an idle worker looks for due events when no notification wakes it. */
  @Transform(toInt)
  @IsInt({ message: 'WORKER_POLL_MS must be an integer' })
  @Min(50)
  WORKER_POLL_MS = 1000;

  /** The longest one attempt (all its steps) may take before another worker may take the event over. */
  @Transform(toInt)
  @IsInt({ message: 'LEASE_SECONDS must be an integer' })
  @Min(1)
  @Max(86_400)
  LEASE_SECONDS = 60;

  /** Attempts before an event is dead; a lease that expires counts as an attempt. */
  @Transform(toInt)
  @IsInt({ message: 'MAX_ATTEMPTS must be an integer' })
  @Min(1)
  @Max(1000)
  MAX_ATTEMPTS = 10;

  /** First retry delay; each further retry doubles it (with jitter) up to RETRY_MAX_MS. */
  @Transform(toInt)
  @IsInt({ message: 'RETRY_BASE_MS must be an integer' })
  @Min(1)
  RETRY_BASE_MS = 1000;

  @Transform(toInt)
  @IsInt({ message: 'RETRY_MAX_MS must be an integer' })
  @Min(1)
  RETRY_MAX_MS = 600_000;

  /** On SIGTERM, how long in-flight events may take to finish before they are released. */
  @Transform(toInt)
  @IsInt({ message: 'SHUTDOWN_TIMEOUT_MS must be an integer' })
  @Min(0)
  SHUTDOWN_TIMEOUT_MS = 10_000;

  /** Where the forward step POSTs every event; unset, there is no forward step. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true }, { message: 'FORWARD_URL must be an http(s):// URL' })
  FORWARD_URL?: string;

  /** Signs forwarded bodies (X-Signature-256) when set. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(8, { message: 'FORWARD_SECRET must be at least 8 characters' })
  FORWARD_SECRET?: string;

  @Transform(toInt)
  @IsInt({ message: 'FORWARD_TIMEOUT_MS must be an integer' })
  @Min(1)
  FORWARD_TIMEOUT_MS = 10_000;

  /** Turns on the auto-reply example step: every inbound Meta message gets this text back. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  AUTO_REPLY_TEXT?: string;

  /** Cloud API access token for outbound messages (auto-reply). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  WHATSAPP_ACCESS_TOKEN?: string;

  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true }, { message: 'WHATSAPP_GRAPH_URL must be an http(s):// URL' })
  WHATSAPP_GRAPH_URL = 'https://graph.facebook.com/v23.0';

  /**
   * Required as `Authorization: Bearer <key>` by the inspection API (/messages, /deliveries).
   * The HTTP service refuses to start without it when NODE_ENV=production (see InspectionModule).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'INSPECTION_API_KEY must be at least 16 characters' })
  INSPECTION_API_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  /** Purge finished events and delivery records older than RETENTION_DAYS (src/retention). */
  @Transform(toBoolean)
  @IsBoolean({ message: 'RETENTION_ENABLED must be true or false' })
  RETENTION_ENABLED = true;

  /**
   * Days an idempotency key (a processed or dead event) is kept after it was last received,
   * redelivered or worked on. Meta retries a webhook for up to 7 days: a key purged sooner
   * would let a late retry be accepted as new and processed twice.
   */
  @Transform(toInt)
  @IsInt({ message: 'RETENTION_DAYS must be an integer' })
  @Min(8, { message: 'RETENTION_DAYS must be at least 8: Meta retries a webhook for up to 7 days, and a key purged sooner lets a late retry be processed twice' })
  @Max(36_500)
  RETENTION_DAYS = 8;

  /** How often each process runs the purge (±10 % jitter; the first run comes 10–70 s after start). */
  @Transform(toInt)
  @IsInt({ message: 'RETENTION_INTERVAL_MINUTES must be an integer' })
  @Min(1)
  @Max(1440)
  RETENTION_INTERVAL_MINUTES = 60;

  /** Rows one purge statement deletes at most: the locks it takes are held that briefly. */
  @Transform(toInt)
  @IsInt({ message: 'RETENTION_BATCH_SIZE must be an integer' })
  @Min(1)
  @Max(10_000)
  RETENTION_BATCH_SIZE = 1000;
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
