-- Retention (src/retention): the periodic purge finds delivery records by age.
-- Finished events need no new index: the purge's range on (status, received_at) is
-- messages_status_received_at_idx. Delivery records had none on updated_at, so every purge
-- batch would have scanned the whole table.

-- CreateIndex
CREATE INDEX "deliveries_updated_at_idx" ON "deliveries"("updated_at");
