-- CreateTable
CREATE TABLE "OrderSync" (
    "shop" TEXT NOT NULL,
    "watermark" TIMESTAMP(3),
    "reconciledAt" TIMESTAMP(3),
    "missedOrders" INTEGER NOT NULL DEFAULT 0,
    "missedChanges" INTEGER NOT NULL DEFAULT 0,
    "reconcileError" TEXT,
    "backfillStatus" TEXT,
    "backfillDays" INTEGER,
    "backfillSince" TIMESTAMP(3),
    "backfillUntil" TIMESTAMP(3),
    "backfillCursor" TEXT,
    "backfillTotal" INTEGER,
    "backfillSeen" INTEGER NOT NULL DEFAULT 0,
    "backfillAdded" INTEGER NOT NULL DEFAULT 0,
    "backfillError" TEXT,
    "backfillStartedAt" TIMESTAMP(3),
    "backfillFinishedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OrderSync_pkey" PRIMARY KEY ("shop")
);
