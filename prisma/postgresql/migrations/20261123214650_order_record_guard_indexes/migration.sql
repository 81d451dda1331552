-- CreateIndex
CREATE INDEX "OrderRecord_shop_email_idx" ON "OrderRecord"("shop", "email");

-- CreateIndex
CREATE INDEX "OrderRecord_shop_browserIp_createdAt_idx" ON "OrderRecord"("shop", "browserIp", "createdAt");

-- CreateIndex
CREATE INDEX "OrderRecord_shop_shortCode_createdAt_idx" ON "OrderRecord"("shop", "shortCode", "createdAt");

-- CreateIndex
CREATE INDEX "OrderRecord_shop_couponCode_createdAt_idx" ON "OrderRecord"("shop", "couponCode", "createdAt");
