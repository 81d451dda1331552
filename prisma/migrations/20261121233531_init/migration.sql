-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "isOnline" BOOLEAN NOT NULL DEFAULT false,
    "scope" TEXT,
    "expires" DATETIME,
    "accessToken" TEXT NOT NULL,
    "userId" BIGINT,
    "firstName" TEXT,
    "lastName" TEXT,
    "email" TEXT,
    "accountOwner" BOOLEAN NOT NULL DEFAULT false,
    "locale" TEXT,
    "collaborator" BOOLEAN DEFAULT false,
    "emailVerified" BOOLEAN DEFAULT false,
    "refreshToken" TEXT,
    "refreshTokenExpires" DATETIME
);

-- CreateTable
CREATE TABLE "Shop" (
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
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "runAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" DATETIME,
    "lockedBy" TEXT,
    "lastError" TEXT,
    "webhookId" TEXT,
    "triggeredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "OrderRecord" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "orderName" TEXT,
    "email" TEXT,
    "customerId" TEXT,
    "shortCode" TEXT,
    "couponCode" TEXT,
    "campaignUids" TEXT,
    "revenue" TEXT,
    "currency" TEXT,
    "refunds" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "statusReason" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "commissionState" TEXT,
    "results" TEXT,
    "codeSource" TEXT,
    "recordedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Session_shop_idx" ON "Session"("shop");

-- CreateIndex
CREATE UNIQUE INDEX "Job_key_key" ON "Job"("key");

-- CreateIndex
CREATE INDEX "Job_status_runAt_idx" ON "Job"("status", "runAt");

-- CreateIndex
CREATE INDEX "Job_shop_status_idx" ON "Job"("shop", "status");

-- CreateIndex
CREATE INDEX "OrderRecord_shop_status_idx" ON "OrderRecord"("shop", "status");

-- CreateIndex
CREATE INDEX "OrderRecord_shop_createdAt_idx" ON "OrderRecord"("shop", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "OrderRecord_shop_orderId_key" ON "OrderRecord"("shop", "orderId");
