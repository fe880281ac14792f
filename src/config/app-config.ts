import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, isFQDN, isIP, Matches, Max, Min, ValidateBy, validateSync } from 'class-validator';
import { emptyToUndefined, toBoolean, toInt } from './config-transforms.js';
import { DEFAULT_DEAD_RETENTION_DAYS, ProcessingSettings } from './processing-settings.js';
import { keyBytes, MIN_KEY_BYTES, WHSEC_PATTERN } from './trust-settings.js';

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

  /**
   * The address the HTTP server (and the standalone worker's metrics server) binds to. Unset,
   * every interface, as Node.js does by default; `127.0.0.1` keeps the service reachable only
   * through a proxy on the same host.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @ValidateBy(
    { name: 'isListenAddress', validator: { validate: (value) => typeof value === 'string' && (isIP(value) || isFQDN(value, { require_tld: false })) } },
    { message: 'HOST must be an IP address (e.g. 127.0.0.1, ::1, 0.0.0.0) or a host name, without a port' },
  )
  HOST?: string;

  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  @Transform(toBoolean)
  @IsBoolean({ message: 'MIGRATE_ON_START must be true or false' })
  MIGRATE_ON_START = true;

  /** lock_timeout of each migration (docs/migrations.md); keep it below DB_STATEMENT_TIMEOUT_MS. 0: no limit. */
  @Transform(toInt)
  @IsInt({ message: 'MIGRATION_LOCK_TIMEOUT_MS must be an integer' })
  @Min(0)
  MIGRATION_LOCK_TIMEOUT_MS = 2000;

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

  /**
   * How long a source that had traffic may send no new event before the silence alert
   * (deploy/prometheus/alerts.yml) fires, in seconds; 0: never. Exported per enabled source as
   * wdd_silence_alert_after_seconds, so changing it needs no edit of the rules. At most 7 days:
   * the rule looks back 8 days for a source's last event.
   */
  @Transform(toInt)
  @IsInt({ message: 'SILENCE_ALERT_AFTER_SECONDS must be an integer (seconds; 0 turns the silence alert off)' })
  @Min(0, { message: 'SILENCE_ALERT_AFTER_SECONDS must be between 0 (off) and 604800 (7 days)' })
  @Max(604_800, { message: 'SILENCE_ALERT_AFTER_SECONDS must be between 0 (off) and 604800 (7 days)' })
  SILENCE_ALERT_AFTER_SECONDS = 3600;

  /** Largest accepted webhook body: by default Meta's documented maximum, 3 MB, the largest any supported provider documents (docs/security.md, Limits). */
  @Matches(/^\d+(kb|mb)$/i, { message: 'WEBHOOK_BODY_LIMIT must look like 3mb or 512kb' })
  WEBHOOK_BODY_LIMIT = '3mb';

  /**
   * How long a client may take to send one whole request, headers and body, in ms (Node's
   * server.requestTimeout): a stalled or trickled upload is cut then (408, connection closed).
   */
  @Transform(toInt)
  @IsInt({ message: 'HTTP_REQUEST_TIMEOUT_MS must be an integer (milliseconds)' })
  @Min(1000, { message: 'HTTP_REQUEST_TIMEOUT_MS must be at least 1000' })
  @Max(600_000, { message: 'HTTP_REQUEST_TIMEOUT_MS must be at most 600000 (10 minutes)' })
  HTTP_REQUEST_TIMEOUT_MS = 25_000;

  /** How long a client may take to send a request's headers, in ms (Node's server.headersTimeout); at most HTTP_REQUEST_TIMEOUT_MS. */
  @Transform(toInt)
  @IsInt({ message: 'HTTP_HEADERS_TIMEOUT_MS must be an integer (milliseconds)' })
  @Min(1000, { message: 'HTTP_HEADERS_TIMEOUT_MS must be at least 1000' })
  @ValidateBy(
    { name: 'notAboveRequestTimeout', validator: { validate: (value: unknown, args) => typeof value === 'number' && value <= (args?.object as AppConfig).HTTP_REQUEST_TIMEOUT_MS } },
    { message: 'HTTP_HEADERS_TIMEOUT_MS must not be above HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)' },
  )
  HTTP_HEADERS_TIMEOUT_MS = 10_000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  /** Serve the operator console (the built files in dist/console) at /console; false answers 404 there. */
  @Transform(toBoolean)
  @IsBoolean({ message: 'CONSOLE_ENABLED must be true or false' })
  CONSOLE_ENABLED = true;
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
  // Unset, it follows a longer RETENTION_DAYS: raising that alone must never make the start fail.
  config.DEAD_RETENTION_DAYS ??= Math.max(DEFAULT_DEAD_RETENTION_DAYS, config.RETENTION_DAYS);
  return config;
}

function crossFieldErrors(config: AppConfig): string[] {
  const errors: string[] = [];
  if (config.AUTO_REPLY_TEXT && !config.WHATSAPP_ACCESS_TOKEN) errors.push('AUTO_REPLY_TEXT needs WHATSAPP_ACCESS_TOKEN');
  for (const secret of config.FORWARD_SECRET) {
    if (!secret.startsWith('whsec_')) continue;
    if (!WHSEC_PATTERN.test(secret)) errors.push('FORWARD_SECRET: a whsec_ secret must be whsec_ followed by base64');
    else if (keyBytes(secret) < MIN_KEY_BYTES) errors.push(`FORWARD_SECRET: a whsec_ secret must hold at least ${MIN_KEY_BYTES} bytes`);
  }
  if (config.RETRY_MAX_MS < config.RETRY_BASE_MS) errors.push('RETRY_MAX_MS must not be below RETRY_BASE_MS');
  // Until FORWARD_URL becomes the one-destination shorthand, the two would forward every event twice.
  if (config.FORWARD_URL !== undefined && config.DESTINATIONS_FILE !== undefined) {
    errors.push('FORWARD_URL and DESTINATIONS_FILE: set one (put FORWARD_URL into the file as a destination)');
  }
  // A dead event is purged on its own, longer clock; purging it before the processed ones would defeat the point.
  if (config.DEAD_RETENTION_DAYS !== undefined && config.DEAD_RETENTION_DAYS < config.RETENTION_DAYS) {
    errors.push(`DEAD_RETENTION_DAYS must not be below RETENTION_DAYS (${config.RETENTION_DAYS})`);
  }
  // An attempt is aborted at its timeout; a forward must be able to time out (and say why) first.
  if (config.FORWARD_TIMEOUT_MS >= config.ATTEMPT_TIMEOUT_SECONDS * 1000) {
    errors.push(`FORWARD_TIMEOUT_MS must be below ATTEMPT_TIMEOUT_SECONDS (${config.ATTEMPT_TIMEOUT_SECONDS * 1000} ms)`);
  }
  return errors;
}
