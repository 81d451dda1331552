-- CreateTable
CREATE TABLE "RefusedDelivery" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "webhookId" TEXT,
    "reason" TEXT NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RefusedDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RefusedDelivery_shop_receivedAt_idx" ON "RefusedDelivery"("shop", "receivedAt");
