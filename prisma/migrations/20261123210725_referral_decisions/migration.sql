-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN "browserIp" TEXT;
ALTER TABLE "OrderRecord" ADD COLUMN "explanation" TEXT;
ALTER TABLE "OrderRecord" ADD COLUMN "flags" TEXT;
ALTER TABLE "OrderRecord" ADD COLUMN "taxesIncluded" BOOLEAN;

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
    "guardRules" TEXT NOT NULL DEFAULT '',
    "guardDailyLimit" INTEGER NOT NULL DEFAULT 5,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Shop" ("approval", "autoEnrol", "campaignUids", "codeParams", "companyName", "connectionCheckedAt", "connectionError", "connectionStatus", "inboundWebhookId", "inboundWebhookSecretSealed", "installedAt", "newAmbassadorGroup", "redactAtService", "revenueBasis", "scope", "serviceBaseUrl", "serviceTokenSealed", "serviceUsername", "shop", "storeCreditPayouts", "tagContacts", "testOrders", "trigger", "uninstalledAt", "updatedAt") SELECT "approval", "autoEnrol", "campaignUids", "codeParams", "companyName", "connectionCheckedAt", "connectionError", "connectionStatus", "inboundWebhookId", "inboundWebhookSecretSealed", "installedAt", "newAmbassadorGroup", "redactAtService", "revenueBasis", "scope", "serviceBaseUrl", "serviceTokenSealed", "serviceUsername", "shop", "storeCreditPayouts", "tagContacts", "testOrders", "trigger", "uninstalledAt", "updatedAt" FROM "Shop";
DROP TABLE "Shop";
ALTER TABLE "new_Shop" RENAME TO "Shop";
CREATE UNIQUE INDEX "Shop_inboundWebhookId_key" ON "Shop"("inboundWebhookId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
