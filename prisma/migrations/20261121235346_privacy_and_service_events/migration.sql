-- CreateTable
CREATE TABLE "ServiceEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processedAt" DATETIME
);

-- CreateTable
CREATE TABLE "DataRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "requestId" TEXT,
    "customerId" TEXT,
    "email" TEXT,
    "ordersRequested" TEXT NOT NULL DEFAULT '[]',
    "status" TEXT NOT NULL DEFAULT 'open',
    "statusDetail" TEXT,
    "report" TEXT,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" DATETIME
);

-- CreateTable
CREATE TABLE "RedactionLog" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "subjectHash" TEXT NOT NULL,
    "deleted" TEXT NOT NULL,
    "serviceState" TEXT NOT NULL,
    "serviceDetail" TEXT,
    "pendingEmailSealed" TEXT,
    "requestedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completedAt" DATETIME
);

-- CreateTable
CREATE TABLE "PayoutCredit" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Shop" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "installedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalledAt" DATETIME,
    "serviceBaseUrl" TEXT,
    "serviceUsername" TEXT,
    "serviceTokenSealed" TEXT,
    "companyName" TEXT,
    "connectionStatus" TEXT NOT NULL DEFAULT 'not_connected',
    "connectionError" TEXT,
    "connectionCheckedAt" DATETIME,
    "campaignUids" TEXT NOT NULL DEFAULT '',
    "trigger" TEXT NOT NULL DEFAULT 'orders_paid',
    "scope" TEXT NOT NULL DEFAULT 'with_code',
    "approval" TEXT NOT NULL DEFAULT 'campaign',
    "revenueBasis" TEXT NOT NULL DEFAULT 'subtotal_after_discounts',
    "codeParams" TEXT NOT NULL DEFAULT 'mbsy',
    "testOrders" TEXT NOT NULL DEFAULT 'skip',
    "autoEnrol" BOOLEAN NOT NULL DEFAULT false,
    "newAmbassadorGroup" TEXT,
    "inboundWebhookId" TEXT,
    "inboundWebhookSecretSealed" TEXT,
    "redactAtService" BOOLEAN NOT NULL DEFAULT true,
    "storeCreditPayouts" BOOLEAN NOT NULL DEFAULT false,
    "tagContacts" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Shop" ("approval", "autoEnrol", "campaignUids", "codeParams", "companyName", "connectionCheckedAt", "connectionError", "connectionStatus", "installedAt", "newAmbassadorGroup", "revenueBasis", "scope", "serviceBaseUrl", "serviceTokenSealed", "serviceUsername", "shop", "testOrders", "trigger", "uninstalledAt", "updatedAt") SELECT "approval", "autoEnrol", "campaignUids", "codeParams", "companyName", "connectionCheckedAt", "connectionError", "connectionStatus", "installedAt", "newAmbassadorGroup", "revenueBasis", "scope", "serviceBaseUrl", "serviceTokenSealed", "serviceUsername", "shop", "testOrders", "trigger", "uninstalledAt", "updatedAt" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_inboundWebhookId_key" ON "Shop"("inboundWebhookId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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
