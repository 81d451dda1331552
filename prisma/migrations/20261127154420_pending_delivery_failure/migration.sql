-- AlterTable
ALTER TABLE "PendingDelivery" ADD COLUMN "failure" TEXT;
