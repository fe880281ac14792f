-- What happened to an event besides its happy path, for its timeline (GET /messages/{id},
-- the console): each failed attempt of its steps and of its deliveries (with the error and
-- whether it was the last), and each replay. Written only on those paths, so an event that
-- goes through on its first attempt costs nothing here; removed with its event.

-- CreateTable
CREATE TABLE "event_history" (
    "id" BIGSERIAL NOT NULL,
    "message_id" VARCHAR(255) NOT NULL,
    "at" TIMESTAMPTZ(6) NOT NULL DEFAULT now(),
    "kind" VARCHAR(16) NOT NULL,
    "step" VARCHAR(64),
    "destination" VARCHAR(64),
    "attempt" INTEGER,
    "dead" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,

    CONSTRAINT "event_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "event_history_message_id_idx" ON "event_history"("message_id", "id");

-- AddForeignKey
ALTER TABLE "event_history" ADD CONSTRAINT "event_history_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("message_id") ON DELETE CASCADE ON UPDATE CASCADE;
