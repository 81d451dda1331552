-- AlterTable
ALTER TABLE "Job" ADD COLUMN "writingAt" DATETIME;

-- AlterTable
ALTER TABLE "PayoutCredit" ADD COLUMN "approvedAt" DATETIME;
ALTER TABLE "PayoutCredit" ADD COLUMN "attemptStartedAt" DATETIME;

-- AlterTable (SQLite adds a NOT NULL column with a constant default in place: no copy of the table,
-- and no list of Shop's columns that another branch's migration could disagree with)
ALTER TABLE "Shop" ADD COLUMN "payoutCurrency" TEXT;
ALTER TABLE "Shop" ADD COLUMN "payoutCeiling" TEXT NOT NULL DEFAULT '100.00';

-- CreateIndex
CREATE INDEX "PayoutCredit_shop_state_idx" ON "PayoutCredit"("shop", "state");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutCredit_shop_transactionId_key" ON "PayoutCredit"("shop", "transactionId");
