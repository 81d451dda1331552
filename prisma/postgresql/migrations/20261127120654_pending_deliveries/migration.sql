-- CreateTable
CREATE TABLE "PendingDelivery" (
    "id" SERIAL NOT NULL,
    "shop" TEXT NOT NULL,
    "topic" TEXT NOT NULL,
    "webhookId" TEXT,
    "triggeredAt" TIMESTAMP(3),
    "body" BYTEA NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PendingDelivery_pkey" PRIMARY KEY ("id")
);
