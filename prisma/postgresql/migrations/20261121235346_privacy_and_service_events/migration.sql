-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "inboundWebhookId" TEXT,
ADD COLUMN     "inboundWebhookSecretSealed" TEXT,
ADD COLUMN     "redactAtService" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "storeCreditPayouts" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "tagContacts" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ServiceEvent" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "emails" TEXT NOT NULL DEFAULT ',',
    "reference" TEXT,
    "serviceCreatedAt" TEXT,
    "signedForm" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'received',
    "detail" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" TIMESTAMP(3),

    CONSTRAINT "ServiceEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DataRequest" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "requestId" TEXT,
    "customerId" TEXT,
    "email" TEXT,
    "ordersRequested" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'open',
    "statusDetail" TEXT,
    "report" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "DataRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RedactionLog" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "subjectHash" TEXT NOT NULL,
    "deleted" TEXT NOT NULL,
    "serviceState" TEXT NOT NULL,
    "serviceDetail" TEXT,
    "pendingEmailSealed" TEXT,
    "requestedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "RedactionLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PayoutCredit" (
    "id" TEXT NOT NULL,
    "shop" TEXT NOT NULL,
    "payoutId" TEXT NOT NULL,
    "serviceEventId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "amount" TEXT NOT NULL,
    "currency" TEXT,
    "state" TEXT NOT NULL DEFAULT 'claimed',
    "customerId" TEXT,
    "balanceBefore" TEXT,
    "transactionId" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PayoutCredit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ServiceEvent_shop_receivedAt_idx" ON "ServiceEvent"("shop", "receivedAt");

-- CreateIndex
CREATE INDEX "ServiceEvent_shop_reference_idx" ON "ServiceEvent"("shop", "reference");

-- CreateIndex
CREATE UNIQUE INDEX "ServiceEvent_shop_eventId_key" ON "ServiceEvent"("shop", "eventId");

-- CreateIndex
CREATE INDEX "DataRequest_shop_receivedAt_idx" ON "DataRequest"("shop", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "DataRequest_shop_requestId_key" ON "DataRequest"("shop", "requestId");

-- CreateIndex
CREATE INDEX "RedactionLog_shop_requestedAt_idx" ON "RedactionLog"("shop", "requestedAt");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutCredit_shop_payoutId_key" ON "PayoutCredit"("shop", "payoutId");

-- CreateIndex
CREATE UNIQUE INDEX "Shop_inboundWebhookId_key" ON "Shop"("inboundWebhookId");
