import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { emptyToUndefined, toBoolean, toInt } from '../config/config-transforms.js';
import { Feature, Setting } from '../config/settings/setting.js';

@Feature('Database', 'The PostgreSQL connection, its pool and timeouts, and the migrations applied at start.')
export class DatabaseSettings {
  @Setting(
    'PostgreSQL connection URL, `postgresql://user:pass@host:5432/db`; unset, `npm start` runs on the embedded PGlite (one process only; refused when `NODE_ENV=production`)',
    { default: 'unset: embedded' },
  )
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgresql:// connection URL' })
  DATABASE_URL: string;

  // Read by src/embedded before validation (it decides DATABASE_URL); declared here to be documented.
  @Setting('where the embedded database keeps its data (only when `DATABASE_URL` is unset)', { default: '`.data/pglite`' })
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString({ message: 'EMBEDDED_DATA_DIR must be a directory path' })
  EMBEDDED_DATA_DIR?: string;

  /** Claims from concurrent requests share the connections in batches. */
  @Setting('PostgreSQL connections per process (half of them carry claims)')
  @Transform(toInt)
  @IsInt({ message: 'DB_POOL_SIZE must be an integer' })
  @Min(2)
  @Max(200)
  DB_POOL_SIZE = 10;

  @Setting('longest a statement (the claim included) may take, in milliseconds, before the webhook request is answered `503`')
  @Transform(toInt)
  @IsInt({ message: 'DB_STATEMENT_TIMEOUT_MS must be an integer' })
  @Min(100)
  DB_STATEMENT_TIMEOUT_MS = 5000;

  @Setting('apply pending migrations at start; `false` when a release step runs `npm run migrate` or `prisma migrate deploy`')
  @Transform(toBoolean)
  @IsBoolean({ message: 'MIGRATE_ON_START must be true or false' })
  MIGRATE_ON_START = true;

  @Setting(
    '`lock_timeout` of each migration, in milliseconds; one that cannot get its locks in time is rolled back and retried (see [migrations](migrations.md)); keep it below `DB_STATEMENT_TIMEOUT_MS`; `0`: no limit',
  )
  @Transform(toInt)
  @IsInt({ message: 'MIGRATION_LOCK_TIMEOUT_MS must be an integer' })
  @Min(0)
  MIGRATION_LOCK_TIMEOUT_MS = 2000;
}
