-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN "emailKey" TEXT;

-- CreateIndex
CREATE INDEX "OrderRecord_shop_emailKey_idx" ON "OrderRecord"("shop", "emailKey");

-- Rows stored before the app wrote the key. lower() is only trusted on ASCII
-- (SQLite folds nothing else); a row with other characters keeps no key and
-- is matched by the app's own folding (app/privacy/customer-rows.server.ts).
UPDATE "OrderRecord" SET "emailKey" = lower(trim("email")) WHERE "email" IS NOT NULL AND trim("email") <> '' AND "email" NOT GLOB '*[^ -~]*';
