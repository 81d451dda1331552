-- CreateTable
CREATE TABLE "FlowActionRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "shop" TEXT NOT NULL,
    "actionRunId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "request" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "customerId" TEXT,
    "orderId" TEXT,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "detail" TEXT,
    "receivedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "FlowActionRun_shop_receivedAt_idx" ON "FlowActionRun"("shop", "receivedAt");

-- CreateIndex
CREATE UNIQUE INDEX "FlowActionRun_shop_actionRunId_key" ON "FlowActionRun"("shop", "actionRunId");
