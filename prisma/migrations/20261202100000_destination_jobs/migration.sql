-- Destinations: each event's delivery to each destination its filter matches, a job of its own
-- with its attempts, retry time, lease, last error and dead state, so one destination's failures
-- never hold back or repeat another's deliveries.

-- CreateTable
CREATE TABLE "destination_jobs" (
    "message_id" VARCHAR(255) NOT NULL,
    "destination" VARCHAR(64) NOT NULL,
    "status" "message_status" NOT NULL DEFAULT 'received',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "result" JSONB,
    "replay" INTEGER NOT NULL DEFAULT 0,
    -- ordering: conversation. The conversation (tenant and other party) and its order: the provider's
    -- time, then the time of receipt. NULL conversation: delivered in no particular order.
    "conversation" VARCHAR(300),
    "ordered_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    -- The message a reaction or status refers to (its event's key): never sent before it.
    "after_message_id" VARCHAR(255),
    "received_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    "due_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    "lease_token" UUID,
    "leased_by" VARCHAR(128),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    "completed_at" TIMESTAMPTZ(6),

    CONSTRAINT "destination_jobs_pkey" PRIMARY KEY ("message_id", "destination")
);

-- CreateIndex
-- The deliveries a worker may lease: unfinished ones, by when they are due.
CREATE INDEX "destination_jobs_due_idx" ON "destination_jobs"("due_at") WHERE status IN ('received', 'processing', 'failed');

-- CreateIndex
-- A conversation's unfinished deliveries in order: its head is the first.
CREATE INDEX "destination_jobs_conversation_idx" ON "destination_jobs"("destination", "conversation", "ordered_at", "received_at", "message_id") WHERE conversation IS NOT NULL AND status IN ('received', 'processing', 'failed');

-- CreateIndex
-- One delivery in flight per conversation and destination, whatever the workers do: the order as a constraint.
CREATE UNIQUE INDEX "destination_jobs_one_in_flight_idx" ON "destination_jobs"("destination", "conversation") WHERE conversation IS NOT NULL AND status = 'processing';

-- AddForeignKey
ALTER TABLE "destination_jobs" ADD CONSTRAINT "destination_jobs_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("message_id") ON DELETE CASCADE ON UPDATE CASCADE;
