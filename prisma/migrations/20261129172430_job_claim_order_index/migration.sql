-- DropIndex
DROP INDEX "Job_status_shop_runAt_idx";

-- CreateIndex
CREATE INDEX "Job_status_shop_runAt_id_idx" ON "Job"("status", "shop", "runAt", "id");
