-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN "placedAt" DATETIME;

-- CreateIndex
CREATE INDEX "OrderRecord_shop_placedAt_idx" ON "OrderRecord"("shop", "placedAt");
