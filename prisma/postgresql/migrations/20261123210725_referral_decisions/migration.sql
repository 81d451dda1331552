-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "guardDailyLimit" INTEGER NOT NULL DEFAULT 5,
ADD COLUMN     "guardRules" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN     "browserIp" TEXT,
ADD COLUMN     "explanation" TEXT,
ADD COLUMN     "flags" TEXT,
ADD COLUMN     "taxesIncluded" BOOLEAN;
