-- GET /messages?tenant=…, newest first. Built without blocking the inbox's writes.

-- CreateIndex
CREATE INDEX CONCURRENTLY "messages_tenant_received_at_idx" ON "messages"("tenant", "received_at");
