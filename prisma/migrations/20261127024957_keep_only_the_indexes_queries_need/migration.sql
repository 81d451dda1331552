-- DropIndex
DROP INDEX "Job_status_runAt_idx";

-- DropIndex
DROP INDEX "Job_shop_status_idx";

-- DropIndex
DROP INDEX "OrderRecord_shop_status_idx";

-- DropIndex
DROP INDEX "OrderRecord_shop_createdAt_idx";

-- DropIndex
DROP INDEX "OrderRecord_shop_placedAt_idx";

-- DropIndex
DROP INDEX "OrderRecord_shop_email_idx";

-- CreateIndex
CREATE INDEX "OrderRecord_shop_placedAt_status_idx" ON "OrderRecord"("shop", "placedAt", "status");
