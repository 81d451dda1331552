-- AlterTable
ALTER TABLE "Job" ADD COLUMN "lane" TEXT;
ALTER TABLE "Job" ADD COLUMN "laneAt" DATETIME;

-- CreateIndex
CREATE INDEX "Job_lane_status_idx" ON "Job"("lane", "status");

-- One running job per lane: a second worker's claim of another job of the same order fails here.
CREATE UNIQUE INDEX "Job_lane_running_key" ON "Job"("lane") WHERE "status" = 'running';
