-- The guard's velocity counts read only referred orders: their indexes hold only those (the statuses of
-- REFERRED in app/domains/referrals/guard-facts.server.ts, written as the counts write them, so that
-- SQLite sees the counts' WHERE imply the indexes'). An order that is not referred writes none of them.

-- DropIndex
DROP INDEX "OrderRecord_shop_browserIp_placedAt_idx";

-- DropIndex
DROP INDEX "OrderRecord_shop_shortCode_placedAt_idx";

-- DropIndex
DROP INDEX "OrderRecord_shop_couponCode_placedAt_idx";

-- CreateIndex
CREATE INDEX "OrderRecord_referred_browserIp_idx" ON "OrderRecord"("shop", "browserIp", "placedAt") WHERE "status" IN ('recorded', 'needs_review', 'reversed');

-- CreateIndex
CREATE INDEX "OrderRecord_referred_shortCode_idx" ON "OrderRecord"("shop", "shortCode", "placedAt") WHERE "status" IN ('recorded', 'needs_review', 'reversed');

-- CreateIndex
CREATE INDEX "OrderRecord_referred_couponCode_idx" ON "OrderRecord"("shop", "couponCode", "placedAt") WHERE "status" IN ('recorded', 'needs_review', 'reversed');
