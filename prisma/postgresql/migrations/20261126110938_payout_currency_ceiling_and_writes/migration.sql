-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "payoutCeiling" TEXT NOT NULL DEFAULT '100.00',
ADD COLUMN     "payoutCurrency" TEXT;

-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "writingAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "PayoutCredit" ADD COLUMN     "approvedAt" TIMESTAMP(3),
ADD COLUMN     "attemptStartedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "PayoutCredit_shop_state_idx" ON "PayoutCredit"("shop", "state");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutCredit_shop_transactionId_key" ON "PayoutCredit"("shop", "transactionId");
