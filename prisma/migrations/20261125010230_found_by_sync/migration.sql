-- AlterTable
ALTER TABLE "Job" ADD COLUMN "arrivedBy" TEXT;

-- AlterTable
ALTER TABLE "OrderRecord" ADD COLUMN "arrivedBy" TEXT;

-- AlterTable
ALTER TABLE "OrderSync" ADD COLUMN "countedUntil" DATETIME;

-- What reconciliation and the backfill stored, by shop and time, for their
-- counts (app/order-sync/found-counts.server.ts). Partial: a webhook's rows
-- (arrivedBy null) never touch these indexes. Prisma's schema cannot say so.
CREATE INDEX "OrderRecord_found_idx" ON "OrderRecord"("shop", "createdAt") WHERE "arrivedBy" IS NOT NULL;
CREATE INDEX "Job_found_idx" ON "Job"("shop", "createdAt") WHERE "arrivedBy" IS NOT NULL;
