-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "checkoutToken" TEXT,
ADD COLUMN     "heldEvent" TEXT;

-- CreateTable
CREATE TABLE "PixelSignal" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "checkoutToken" TEXT NOT NULL,
    "orderId" TEXT,
    "code" TEXT NOT NULL,
    "campaign" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PixelSignal_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PixelSignal_shop_orderId_idx" ON "PixelSignal"("shop", "orderId");

-- CreateIndex
CREATE UNIQUE INDEX "PixelSignal_shop_checkoutToken_key" ON "PixelSignal"("shop", "checkoutToken");

-- CreateIndex
CREATE INDEX "OrderRecord_shop_checkoutToken_idx" ON "OrderRecord"("shop", "checkoutToken");
