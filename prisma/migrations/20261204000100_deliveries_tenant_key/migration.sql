-- Step 2 of 3: the future primary key's index, built without blocking status writes
-- (alone in its migration: CONCURRENTLY cannot run in a transaction; see docs/migrations.md).

-- CreateIndex
CREATE UNIQUE INDEX CONCURRENTLY "deliveries_provider_tenant_wamid_key" ON "deliveries"("provider", "tenant", "wamid");
