-- Protecting destinations: one row per destination, shared by every worker of every process,
-- holding its rate limit's token bucket and its circuit breaker.

-- CreateTable
CREATE TABLE "destination_state" (
    "destination" VARCHAR(64) NOT NULL,
    -- The token bucket (rateLimit): tokens left when last refilled; NULL until first used (a full bucket).
    "tokens" DOUBLE PRECISION,
    "refilled_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    -- closed: deliveries go out; open: paused after consecutive failures, one probe per interval.
    "circuit" VARCHAR(16) NOT NULL DEFAULT 'closed',
    "failures" INTEGER NOT NULL DEFAULT 0,
    "opened_at" TIMESTAMPTZ(6),
    -- Nothing is sent before this: the next probe of an open circuit, or a Retry-After the destination asked for.
    "paused_until" TIMESTAMPTZ(6),
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(6),
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),

    CONSTRAINT "destination_state_pkey" PRIMARY KEY ("destination")
);
