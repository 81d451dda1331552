-- CreateTable
CREATE TABLE "OrderSync" (
    "shop" TEXT NOT NULL PRIMARY KEY,
    "watermark" DATETIME,
    "reconciledAt" DATETIME,
    "missedOrders" INTEGER NOT NULL DEFAULT 0,
    "missedChanges" INTEGER NOT NULL DEFAULT 0,
    "reconcileError" TEXT,
    "backfillStatus" TEXT,
    "backfillDays" INTEGER,
    "backfillSince" DATETIME,
    "backfillUntil" DATETIME,
    "backfillCursor" TEXT,
    "backfillTotal" INTEGER,
    "backfillSeen" INTEGER NOT NULL DEFAULT 0,
    "backfillAdded" INTEGER NOT NULL DEFAULT 0,
    "backfillError" TEXT,
    "backfillStartedAt" DATETIME,
    "backfillFinishedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);
