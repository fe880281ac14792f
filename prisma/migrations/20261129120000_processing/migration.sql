-- Processing: leases and retries on the inbox, recovery points (steps), delivery records.

-- CreateEnum
-- Declared in progress order: GREATEST() over two statuses is the one a record may move to.
CREATE TYPE "delivery_status" AS ENUM ('sent', 'delivered', 'read', 'played', 'failed');

-- AlterTable
-- due_at: when the row may next be leased. received: on arrival; failed: when its retry is due;
-- processing: when the lease expires. CURRENT_TIMESTAMP is stable, so existing rows get the
-- migration's time without a table rewrite.
ALTER TABLE "messages" ADD COLUMN "from_me" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "due_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN "lease_token" UUID,
ADD COLUMN "leased_by" VARCHAR(128);

-- CreateTable
-- One row per completed step of an event: the recovery point a retry resumes from.
CREATE TABLE "message_steps" (
    "message_id" VARCHAR(255) NOT NULL,
    "step" VARCHAR(64) NOT NULL,
    "result" JSONB,
    "attempt" INTEGER NOT NULL,
    "completed_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_steps_pkey" PRIMARY KEY ("message_id","step")
);

-- CreateTable
-- The furthest status an outbound message reached, and when it reached each one.
CREATE TABLE "deliveries" (
    "wamid" VARCHAR(255) NOT NULL,
    "provider" "provider" NOT NULL,
    "recipient" VARCHAR(128),
    "status" "delivery_status" NOT NULL,
    "error" TEXT,
    "sent_at" TIMESTAMPTZ(6),
    "delivered_at" TIMESTAMPTZ(6),
    "read_at" TIMESTAMPTZ(6),
    "played_at" TIMESTAMPTZ(6),
    "failed_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deliveries_pkey" PRIMARY KEY ("wamid")
);

-- CreateIndex
-- Only unfinished rows: the workers' lease query scans this, never the processed history.
CREATE INDEX "messages_due_idx" ON "messages"("due_at") WHERE status IN ('received', 'processing', 'failed');

-- AddForeignKey
ALTER TABLE "message_steps" ADD CONSTRAINT "message_steps_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("message_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Wakes idle workers (LISTEN messages_inbox) when a claim inserts rows; they also poll, so a
-- missed notification only delays. One notification per statement, none for pure duplicates.
CREATE FUNCTION "messages_notify_inbox"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM inserted) THEN
        PERFORM pg_notify('messages_inbox', '');
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER "messages_notify_inbox" AFTER INSERT ON "messages"
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "messages_notify_inbox"();
