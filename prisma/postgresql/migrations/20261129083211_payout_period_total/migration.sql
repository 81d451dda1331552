-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "payoutPeriodTotal" TEXT NOT NULL DEFAULT '300.00';
