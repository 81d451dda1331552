-- CreateTable
CREATE TABLE "CouponBuyer" (
    "shop" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "buyerKey" TEXT NOT NULL,
    "lastUsedAt" DATETIME NOT NULL,
    "orderId" TEXT NOT NULL,

    PRIMARY KEY ("shop", "code", "buyerKey")
);

-- CreateTable
CREATE TABLE "LeakedCode" (
    "shop" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "referrerEmail" TEXT,
    "flaggedAt" DATETIME NOT NULL,
    "buyers" INTEGER NOT NULL,
    "windowDays" INTEGER NOT NULL,
    "heldFrom" DATETIME NOT NULL,
    "orderId" TEXT NOT NULL,

    PRIMARY KEY ("shop", "code")
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
    "repeatPolicies" TEXT NOT NULL DEFAULT '',
    "renewalRule" TEXT NOT NULL DEFAULT '',
    "autoEnrol" BOOLEAN NOT NULL DEFAULT false,
    "newAmbassadorGroup" TEXT,
    "inboundWebhookId" TEXT,
    "inboundWebhookSecretSealed" TEXT,
    "inboundWebhookSecretCreatedAt" DATETIME,
    "inboundWebhookPreviousSecretSealed" TEXT,
    "inboundWebhookPreviousSecretExpiresAt" DATETIME,
    "redactAtService" BOOLEAN NOT NULL DEFAULT true,
    "storeCreditPayouts" BOOLEAN NOT NULL DEFAULT false,
    "tagContacts" BOOLEAN NOT NULL DEFAULT false,
    "shareLinkMetafield" BOOLEAN NOT NULL DEFAULT false,
    "payoutCurrency" TEXT,
    "payoutCeiling" TEXT NOT NULL DEFAULT '100.00',
    "guardRules" TEXT NOT NULL DEFAULT '',
    "guardDailyLimit" INTEGER NOT NULL DEFAULT 5,
    "updatedAt" DATETIME NOT NULL,
    "flowTriggers" BOOLEAN NOT NULL DEFAULT false,
    "payoutPeriodTotal" TEXT NOT NULL DEFAULT '300.00',
    "reviewWindowDays" INTEGER NOT NULL DEFAULT 0,
    "leakThreshold" INTEGER NOT NULL DEFAULT 5,
    "leakWindowDays" INTEGER NOT NULL DEFAULT 7,
    "leakHold" BOOLEAN NOT NULL DEFAULT true
);
INSERT INTO "new_Shop" ("approval", "autoEnrol", "campaignUids", "codeParams", "companyName", "connectionCheckedAt", "connectionError", "connectionStatus", "flowTriggers", "guardDailyLimit", "guardRules", "inboundWebhookId", "inboundWebhookPreviousSecretExpiresAt", "inboundWebhookPreviousSecretSealed", "inboundWebhookSecretCreatedAt", "inboundWebhookSecretSealed", "installedAt", "newAmbassadorGroup", "payoutCeiling", "payoutCurrency", "payoutPeriodTotal", "redactAtService", "renewalRule", "repeatPolicies", "revenueBasis", "reviewWindowDays", "scope", "serviceBaseUrl", "serviceTokenSealed", "serviceUsername", "shareLinkMetafield", "shop", "storeCreditPayouts", "tagContacts", "testOrders", "trigger", "uninstalledAt", "updatedAt") SELECT "approval", "autoEnrol", "campaignUids", "codeParams", "companyName", "connectionCheckedAt", "connectionError", "connectionStatus", "flowTriggers", "guardDailyLimit", "guardRules", "inboundWebhookId", "inboundWebhookPreviousSecretExpiresAt", "inboundWebhookPreviousSecretSealed", "inboundWebhookSecretCreatedAt", "inboundWebhookSecretSealed", "installedAt", "newAmbassadorGroup", "payoutCeiling", "payoutCurrency", "payoutPeriodTotal", "redactAtService", "renewalRule", "repeatPolicies", "revenueBasis", "reviewWindowDays", "scope", "serviceBaseUrl", "serviceTokenSealed", "serviceUsername", "shareLinkMetafield", "shop", "storeCreditPayouts", "tagContacts", "testOrders", "trigger", "uninstalledAt", "updatedAt" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_inboundWebhookId_key" ON "Shop"("inboundWebhookId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "CouponBuyer_shop_code_lastUsedAt_idx" ON "CouponBuyer"("shop", "code", "lastUsedAt");

-- CreateIndex
CREATE INDEX "LeakedCode_shop_referrerEmail_idx" ON "LeakedCode"("shop", "referrerEmail");
