-- Inspection API: newest-first keyset pagination, and lookups by the other party.

-- CreateIndex
CREATE INDEX "messages_received_at_message_id_idx" ON "messages"("received_at", "message_id");

-- CreateIndex
CREATE INDEX "messages_sender_received_at_idx" ON "messages"("sender", "received_at");
