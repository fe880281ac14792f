import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';
import { eachItem, emptyToUndefined, toBoolean, toInt, toList } from './config-transforms.js';
import { TrustSettings } from './trust-settings.js';

export const DEFAULT_DEAD_RETENTION_DAYS = 30;

/** The background worker's, the built-in steps' and the retention purge's settings (part of AppConfig). */
export class ProcessingSettings extends TrustSettings {
  /** Run the background worker in this process; `npm run start:worker` runs it alone. */
  @Transform(toBoolean)
  @IsBoolean({ message: 'WORKER_ENABLED must be true or false' })
  WORKER_ENABLED = true;

  /** Events one process works on at once. */
  @Transform(toInt)
  @IsInt({ message: 'WORKER_CONCURRENCY must be an integer' })
  @Min(1)
  @Max(1000)
  WORKER_CONCURRENCY = 64;

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

  /**
   * How long a lease lasts without a renewal. A running attempt renews it every third of this
   * (heartbeat), so it bounds how long a crashed worker's events wait, not how long a step may run.
   */
  @Transform(toInt)
  @IsInt({ message: 'LEASE_SECONDS must be an integer' })
  @Min(1)
  @Max(86_400)
  LEASE_SECONDS = 60;

  /** The longest one attempt (all its steps) may run; then it is aborted, fails and is retried. */
  @Transform(toInt)
  @IsInt({ message: 'ATTEMPT_TIMEOUT_SECONDS must be an integer' })
  @Min(1)
  @Max(86_400)
  ATTEMPT_TIMEOUT_SECONDS = 60;

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

  /**
   * A YAML or JSON file of destinations: several downstream URLs, each with a filter, its own
   * attempts, and delivery state per event (src/destinations). Read and validated at boot.
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString({ message: 'DESTINATIONS_FILE must be a file path' })
  DESTINATIONS_FILE?: string;

  /** Where the forward step POSTs every event; unset, there is no forward step. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true }, { message: 'FORWARD_URL must be an http(s):// URL' })
  FORWARD_URL?: string;

  /**
   * Signs forwards (Standard Webhooks webhook-signature, one per secret; X-Signature-256 with
   * the first). `whsec_<base64>` secrets sign with their decoded bytes, others with their UTF-8.
   */
  @Transform(toList)
  @MinLength(8, eachItem('FORWARD_SECRET must be at least 8 characters'))
  FORWARD_SECRET: string[] = [];

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

  /** Purge finished events and delivery records older than RETENTION_DAYS / DEAD_RETENTION_DAYS (src/retention). */
  @Transform(toBoolean)
  @IsBoolean({ message: 'RETENTION_ENABLED must be true or false' })
  RETENTION_ENABLED = true;

  /**
   * Days an idempotency key (a processed event; dead ones: DEAD_RETENTION_DAYS) is kept after
   * it was last received, redelivered or worked on. Meta retries a webhook for up to 7 days: a key purged sooner
   * would let a late retry be accepted as new and processed twice.
   */
  @Transform(toInt)
  @IsInt({ message: 'RETENTION_DAYS must be an integer' })
  @Min(8, { message: 'RETENTION_DAYS must be at least 8: Meta retries a webhook for up to 7 days, and a key purged sooner lets a late retry be processed twice' })
  @Max(36_500)
  RETENTION_DAYS = 8;

  /**
   * Days a dead event is kept, counted like RETENTION_DAYS: long enough to notice it and replay
   * it. Unset, 30 or RETENTION_DAYS when that is longer (validateConfig fills it in); never
   * below RETENTION_DAYS (see crossFieldErrors).
   */
  @Transform(emptyToUndefined)
  @Transform(toInt)
  @IsOptional()
  @IsInt({ message: 'DEAD_RETENTION_DAYS must be an integer' })
  @Min(8, { message: "DEAD_RETENTION_DAYS must be at least 8, RETENTION_DAYS' minimum" })
  @Max(36_500)
  DEAD_RETENTION_DAYS: number;

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
