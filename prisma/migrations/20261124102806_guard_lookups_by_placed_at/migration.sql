-- Orders stored before placedAt existed count from when they were stored, so
-- the guard's day-before windows need only placedAt.
UPDATE "OrderRecord" SET "placedAt" = "createdAt" WHERE "placedAt" IS NULL;

-- DropIndex
DROP INDEX "OrderRecord_shop_browserIp_createdAt_idx";

-- DropIndex
DROP INDEX "OrderRecord_shop_shortCode_createdAt_idx";

-- DropIndex
DROP INDEX "OrderRecord_shop_couponCode_createdAt_idx";

-- CreateIndex
CREATE INDEX "OrderRecord_shop_customerId_idx" ON "OrderRecord"("shop", "customerId");

-- CreateIndex
CREATE INDEX "OrderRecord_shop_browserIp_placedAt_idx" ON "OrderRecord"("shop", "browserIp", "placedAt");

-- CreateIndex
CREATE INDEX "OrderRecord_shop_shortCode_placedAt_idx" ON "OrderRecord"("shop", "shortCode", "placedAt");

-- CreateIndex
CREATE INDEX "OrderRecord_shop_couponCode_placedAt_idx" ON "OrderRecord"("shop", "couponCode", "placedAt");
