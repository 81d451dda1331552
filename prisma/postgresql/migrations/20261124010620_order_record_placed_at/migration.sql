-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "placedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "OrderRecord_shop_placedAt_idx" ON "OrderRecord"("shop", "placedAt");
