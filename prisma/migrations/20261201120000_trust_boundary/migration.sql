-- Trust boundary: which events proved their origin, replays that are deliberate second effects,
-- and delivery records that only their own source can move.

-- AlterTable
-- authenticated: the delivery carried its source's valid signature. Only such events change
-- shared state (delivery records, replies). Rows stored before this migration were taken under
-- the old rules, where an unconfigured secret meant "no check": they count as unauthenticated.
-- replays: how many times an operator replayed the event from the start; each replay is
-- forwarded under a new idempotency key. Constant defaults: no table rewrite.
ALTER TABLE "messages" ADD COLUMN "authenticated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "replays" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
-- A delivery record belongs to the source whose statuses built it: a status from another
-- source with the same message id makes a record of its own and never moves this one.
ALTER TABLE "deliveries" DROP CONSTRAINT "deliveries_pkey",
ADD CONSTRAINT "deliveries_pkey" PRIMARY KEY ("provider", "wamid");
