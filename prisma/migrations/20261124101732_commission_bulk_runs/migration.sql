-- CreateTable
CREATE TABLE "CommissionBulkRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "filters" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "phase" TEXT NOT NULL DEFAULT 'collect',
    "nextPage" INTEGER NOT NULL DEFAULT 1,
    "items" TEXT NOT NULL DEFAULT '[]',
    "total" INTEGER,
    "position" INTEGER NOT NULL DEFAULT 0,
    "succeeded" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "failures" TEXT NOT NULL DEFAULT '[]',
    "error" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "CommissionBulkRun_shop_startedAt_idx" ON "CommissionBulkRun"("shop", "startedAt");
