-- CreateIndex
CREATE INDEX "Job_status_shop_runAt_idx" ON "Job"("status", "shop", "runAt");
