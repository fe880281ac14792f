-- Delivery records of gateways (WAHA, Evolution, WASender) are per tenant: the same message id
-- from two sessions or instances is two messages. Expand, step 1 of 3.

-- AlterTable
-- A constant default: no rewrite and no scan, whatever the table holds ('' for sources whose ids
-- are global, and for every record from before). NOT NULL so it can join the primary key.
ALTER TABLE "deliveries" ADD COLUMN "tenant" VARCHAR(128) NOT NULL DEFAULT '';
