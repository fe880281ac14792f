-- CreateEnum
CREATE TYPE "provider" AS ENUM ('meta', 'wasender', 'generic');

-- CreateEnum
CREATE TYPE "event_kind" AS ENUM ('message', 'status', 'other');

-- CreateEnum
CREATE TYPE "message_status" AS ENUM ('received', 'processing', 'processed', 'failed', 'dead');

-- CreateTable
-- message_id is the idempotency key: its PRIMARY KEY (UNIQUE + NOT NULL) constraint decides every claim.
CREATE TABLE "messages" (
    "message_id" VARCHAR(255) NOT NULL,
    "provider" "provider" NOT NULL,
    "kind" "event_kind" NOT NULL,
    "type" VARCHAR(64) NOT NULL,
    "sender" VARCHAR(128),
    "provider_timestamp" TIMESTAMPTZ(3),
    "payload" JSONB NOT NULL,
    "status" "message_status" NOT NULL DEFAULT 'received',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "duplicate_count" INTEGER NOT NULL DEFAULT 0,
    "received_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_duplicate_at" TIMESTAMPTZ(6),
    "processed_at" TIMESTAMPTZ(6),

    CONSTRAINT "messages_pkey" PRIMARY KEY ("message_id")
);

-- CreateIndex
CREATE INDEX "messages_status_received_at_idx" ON "messages"("status", "received_at");
