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
    "inboundWebhookSecretCreatedAt" DATETIME,
    "inboundWebhookPreviousSecretSealed" TEXT,
    "inboundWebhookPreviousSecretExpiresAt" DATETIME,
    "redactAtService" BOOLEAN NOT NULL DEFAULT true,
    "storeCreditPayouts" BOOLEAN NOT NULL DEFAULT false,
    "tagContacts" BOOLEAN NOT NULL DEFAULT false,
    "shareLinkMetafield" BOOLEAN NOT NULL DEFAULT false,
    "payoutCurrency" TEXT,
    "payoutCeiling" TEXT NOT NULL DEFAULT '100.00',
    "payoutPeriodTotal" TEXT NOT NULL DEFAULT '300.00',
    "guardRules" TEXT NOT NULL DEFAULT '',
    "guardDailyLimit" INTEGER NOT NULL DEFAULT 5,
    "updatedAt" DATETIME NOT NULL,
    "flowTriggers" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_Shop" ("approval", "autoEnrol", "campaignUids", "codeParams", "companyName", "connectionCheckedAt", "connectionError", "connectionStatus", "flowTriggers", "guardDailyLimit", "guardRules", "inboundWebhookId", "inboundWebhookPreviousSecretExpiresAt", "inboundWebhookPreviousSecretSealed", "inboundWebhookSecretCreatedAt", "inboundWebhookSecretSealed", "installedAt", "newAmbassadorGroup", "payoutCeiling", "payoutCurrency", "redactAtService", "revenueBasis", "scope", "serviceBaseUrl", "serviceTokenSealed", "serviceUsername", "shareLinkMetafield", "shop", "storeCreditPayouts", "tagContacts", "testOrders", "trigger", "uninstalledAt", "updatedAt") SELECT "approval", "autoEnrol", "campaignUids", "codeParams", "companyName", "connectionCheckedAt", "connectionError", "connectionStatus", "flowTriggers", "guardDailyLimit", "guardRules", "inboundWebhookId", "inboundWebhookPreviousSecretExpiresAt", "inboundWebhookPreviousSecretSealed", "inboundWebhookSecretCreatedAt", "inboundWebhookSecretSealed", "installedAt", "newAmbassadorGroup", "payoutCeiling", "payoutCurrency", "redactAtService", "revenueBasis", "scope", "serviceBaseUrl", "serviceTokenSealed", "serviceUsername", "shareLinkMetafield", "shop", "storeCreditPayouts", "tagContacts", "testOrders", "trigger", "uninstalledAt", "updatedAt" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_inboundWebhookId_key" ON "Shop"("inboundWebhookId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
