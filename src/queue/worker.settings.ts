import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { toBoolean, toInt } from '../config/config-transforms.js';
import { Feature, Setting } from '../config/settings/setting.js';

@Feature('Worker', 'The background worker that runs each event\'s steps and each destination\'s deliveries: leases, timeouts and retries.')
export class WorkerSettings {
  @Setting('run the worker in the service process; `npm run start:worker` runs it regardless')
  @Transform(toBoolean)
  @IsBoolean({ message: 'WORKER_ENABLED must be true or false' })
  WORKER_ENABLED = true;

  @Setting(
    'events in flight per process; each forwards at most one request at a time, so also the most concurrent requests one process sends `FORWARD_URL` (lower it for a backend that takes fewer)',
  )
  @Transform(toInt)
  @IsInt({ message: 'WORKER_CONCURRENCY must be an integer' })
  @Min(1)
  @Max(1000)
  WORKER_CONCURRENCY = 64;

  @Setting('wake idle workers with LISTEN/NOTIFY; `false` where a session cannot listen (PgBouncer in transaction mode; the embedded database sets it)')
  @Transform(toBoolean)
  @IsBoolean({ message: 'WORKER_LISTEN must be true or false' })
  WORKER_LISTEN = true;

  @Setting('how often, in milliseconds, an idle worker looks for due events when no notification woke it')
  @Transform(toInt)
  @IsInt({ message: 'WORKER_POLL_MS must be an integer' })
  @Min(50)
  WORKER_POLL_MS = 1000;

  @Setting('how long a lease lasts without renewal; a running attempt renews it every third of this, so it bounds how long a crashed worker\'s events wait')
  @Transform(toInt)
  @IsInt({ message: 'LEASE_SECONDS must be an integer' })
  @Min(1)
  @Max(86_400)
  LEASE_SECONDS = 60;

  @Setting('the longest one attempt (all its steps) may run; then it is aborted, its slot freed, and it fails and is retried')
  @Transform(toInt)
  @IsInt({ message: 'ATTEMPT_TIMEOUT_SECONDS must be an integer' })
  @Min(1)
  @Max(86_400)
  ATTEMPT_TIMEOUT_SECONDS = 60;

  @Setting('attempts before an event is `dead`; an expired lease counts as one')
  @Transform(toInt)
  @IsInt({ message: 'MAX_ATTEMPTS must be an integer' })
  @Min(1)
  @Max(1000)
  MAX_ATTEMPTS = 10;

  @Setting('first retry delay, in milliseconds; doubles per attempt, with jitter, up to `RETRY_MAX_MS`')
  @Transform(toInt)
  @IsInt({ message: 'RETRY_BASE_MS must be an integer' })
  @Min(1)
  RETRY_BASE_MS = 1000;

  @Setting('longest retry delay, in milliseconds; not below `RETRY_BASE_MS`')
  @Transform(toInt)
  @IsInt({ message: 'RETRY_MAX_MS must be an integer' })
  @Min(1)
  RETRY_MAX_MS = 600_000;

  @Setting('on `SIGTERM`, how long in-flight events may take to finish, in milliseconds, before they are released')
  @Transform(toInt)
  @IsInt({ message: 'SHUTDOWN_TIMEOUT_MS must be an integer' })
  @Min(0)
  SHUTDOWN_TIMEOUT_MS = 10_000;

  static check(settings: WorkerSettings): string[] {
    return settings.RETRY_MAX_MS < settings.RETRY_BASE_MS ? ['RETRY_MAX_MS must not be below RETRY_BASE_MS'] : [];
  }
}
