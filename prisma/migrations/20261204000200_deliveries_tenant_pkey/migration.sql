-- Step 3 of 3: (provider, tenant, wamid) becomes the primary key, using the index step 2 built:
-- no build and no scan under the ACCESS EXCLUSIVE lock, only catalog changes.
-- The code upserts ON CONFLICT ON CONSTRAINT deliveries_pkey, so it works before and after.

-- AlterTable
ALTER TABLE "deliveries" DROP CONSTRAINT "deliveries_pkey",
ADD CONSTRAINT "deliveries_pkey" PRIMARY KEY USING INDEX "deliveries_provider_tenant_wamid_key";
