-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "flowTriggers" BOOLEAN NOT NULL DEFAULT false;
