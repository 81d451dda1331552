-- AlterTable
ALTER TABLE "Shop" ADD COLUMN     "reviewWindowDays" INTEGER NOT NULL DEFAULT 0;
