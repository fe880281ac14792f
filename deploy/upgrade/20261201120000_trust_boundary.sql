-- Upgrading across 20261201120000_trust_boundary without holding `messages` while the
-- `deliveries` primary key is rebuilt (docs/deployment.md, "Upgrade notes"). Run it BEFORE the new version's
-- migrations, with the old version still serving:
--   psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f deploy/upgrade/20261201120000_trust_boundary.sql
-- psql sends each statement on its own (autocommit), which CREATE INDEX CONCURRENTLY needs.
-- It leaves the schema the migration would have left, and records the migration as applied
-- (the checksum is the SHA-256 of its migration.sql), so `npm run migrate` goes on from there.
-- If it stops half-way, fix the cause and run it again: a step already done is skipped.

-- 1. The new columns of messages: constant defaults, so no rewrite; a brief ACCESS EXCLUSIVE,
--    waited for at most 2 s (run again if it times out).
SET lock_timeout = '2s';
ALTER TABLE "messages" ADD COLUMN IF NOT EXISTS "authenticated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN IF NOT EXISTS "replays" INTEGER NOT NULL DEFAULT 0;

-- 2. The new key's index, built without blocking writes. Without a lock_timeout: it waits for
--    transactions older than itself. A failed build leaves an INVALID index: drop it
--    (DROP INDEX CONCURRENTLY "deliveries_provider_wamid_key") before running this again.
RESET lock_timeout;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "deliveries_provider_wamid_key" ON "deliveries"("provider", "wamid");

-- 3. The primary key swapped onto it: ACCESS EXCLUSIVE for a moment, no build, no scan (both
--    columns are already NOT NULL). The index is renamed deliveries_pkey. (Run again after a
--    complete run, step 2 builds a second index for nothing: it is dropped here.)
SET lock_timeout = '2s';
DO $$
BEGIN
  IF (SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = '"deliveries"'::regclass AND contype = 'p')
     = 'PRIMARY KEY (provider, wamid)' THEN
    DROP INDEX IF EXISTS "deliveries_provider_wamid_key";
  ELSE
    ALTER TABLE "deliveries" DROP CONSTRAINT "deliveries_pkey",
    ADD CONSTRAINT "deliveries_pkey" PRIMARY KEY USING INDEX "deliveries_provider_wamid_key";
  END IF;
END
$$;

-- 4. The migration recorded as applied, as `prisma migrate resolve --applied` would.
INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
SELECT gen_random_uuid()::text, 'd3dfc9968a37a4d13f4b1e20eb63b2ffefbb28cb135151f371b67303e4dfcb71',
       '20261201120000_trust_boundary', now(), now(), 1
WHERE NOT EXISTS (SELECT 1 FROM "_prisma_migrations" WHERE migration_name = '20261201120000_trust_boundary' AND rolled_back_at IS NULL);
