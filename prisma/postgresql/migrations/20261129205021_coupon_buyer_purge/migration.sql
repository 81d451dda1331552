-- CreateIndex
CREATE INDEX "CouponBuyer_lastUsedAt_idx" ON "CouponBuyer"("lastUsedAt");
