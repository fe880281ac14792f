-- Bulk replays (POST /messages/replay) by their Idempotency-Key: the key is claimed before any
-- row changes, so a retried or concurrent request with the same key cannot replay twice, and a
-- repeat answers the first call's result. request_hash (SHA-256 of the normalized filters) tells
-- a repeat from a different request reusing the key. result stays NULL while the request runs.
-- Rows are kept: they are few (one per operator request) and nothing purges them yet.

-- CreateTable
CREATE TABLE "replay_requests" (
    "key" VARCHAR(255) NOT NULL,
    "request_hash" TEXT NOT NULL,
    "result" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),

    CONSTRAINT "replay_requests_pkey" PRIMARY KEY ("key")
);
