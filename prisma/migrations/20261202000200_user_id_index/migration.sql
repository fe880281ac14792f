-- GET /messages?from=… matches the phone number (sender) or the business-scoped user id. Partial:
-- most rows have no user id and cost this index nothing.

-- CreateIndex
CREATE INDEX CONCURRENTLY "messages_user_id_received_at_idx" ON "messages"("user_id", "received_at") WHERE (user_id IS NOT NULL);
