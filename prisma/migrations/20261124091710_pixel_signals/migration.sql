-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN "checkoutToken" TEXT;
ALTER TABLE "OrderRecord" ADD COLUMN "heldEvent" TEXT;

-- CreateTable
CREATE TABLE "PixelSignal" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "checkoutToken" TEXT NOT NULL,
    "orderId" TEXT,
    "code" TEXT NOT NULL,
    "campaign" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "PixelSignal_shop_orderId_idx" ON "PixelSignal"("shop", "orderId");

-- CreateIndex
CREATE UNIQUE INDEX "PixelSignal_shop_checkoutToken_key" ON "PixelSignal"("shop", "checkoutToken");

-- CreateIndex
CREATE INDEX "OrderRecord_shop_checkoutToken_idx" ON "OrderRecord"("shop", "checkoutToken");
