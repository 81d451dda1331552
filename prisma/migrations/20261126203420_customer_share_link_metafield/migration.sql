-- CreateTable
CREATE TABLE "CustomerShareLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "customerId" TEXT,
    "link" TEXT,
    "code" TEXT,
    "version" INTEGER NOT NULL DEFAULT 0,
    "detail" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- AlterTable (added in place rather than by redefining "Shop", so that other
-- migrations adding columns to "Shop" merge without losing theirs)
ALTER TABLE "Shop" ADD COLUMN "shareLinkMetafield" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "CustomerShareLink_shop_email_key" ON "CustomerShareLink"("shop", "email");
