-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "leakHold" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "leakThreshold" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "leakWindowDays" INTEGER NOT NULL DEFAULT 7;

-- CreateTable
CREATE TABLE "CouponBuyer" (
    "shop" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "buyerKey" TEXT NOT NULL,
    "lastUsedAt" TIMESTAMP(3) NOT NULL,
    "orderId" TEXT NOT NULL,

    CONSTRAINT "CouponBuyer_pkey" PRIMARY KEY ("shop","code","buyerKey")
);

-- CreateTable
CREATE TABLE "LeakedCode" (
    "shop" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "referrerEmail" TEXT,
    "flaggedAt" TIMESTAMP(3) NOT NULL,
    "buyers" INTEGER NOT NULL,
    "windowDays" INTEGER NOT NULL,
    "heldFrom" TIMESTAMP(3) NOT NULL,
    "orderId" TEXT NOT NULL,

    CONSTRAINT "LeakedCode_pkey" PRIMARY KEY ("shop","code")
);

-- CreateIndex
CREATE INDEX "CouponBuyer_shop_code_lastUsedAt_idx" ON "CouponBuyer"("shop", "code", "lastUsedAt");

-- CreateIndex
CREATE INDEX "LeakedCode_shop_referrerEmail_idx" ON "LeakedCode"("shop", "referrerEmail");
