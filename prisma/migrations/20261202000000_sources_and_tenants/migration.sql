-- Providers: Twilio, 360dialog, WAHA and Evolution API, each with its own URL, verifier and parser.
-- Tenants: the business number or instance an event belongs to. Business-scoped user ids: Meta
-- usernames, sent beside or instead of the phone number.

-- AlterEnum
-- New values are appended (a delivery record's provider keeps its meaning); they are usable once
-- this migration has committed, before any row can carry them.
ALTER TYPE "provider" ADD VALUE 'twilio';
ALTER TYPE "provider" ADD VALUE '360dialog';
ALTER TYPE "provider" ADD VALUE 'waha';
ALTER TYPE "provider" ADD VALUE 'evolution';

-- AlterTable
-- Nullable, no default: no table rewrite. Rows stored before keep NULL (their tenant is in the
-- payload, where the parser of the day left it).
ALTER TABLE "messages" ADD COLUMN "user_id" VARCHAR(128),
ADD COLUMN "tenant" VARCHAR(128);
