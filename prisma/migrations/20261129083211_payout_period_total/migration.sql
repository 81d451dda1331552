-- AlterTable (written by hand: SQLite adds the column in place, so a migration of another branch that also changes "Shop" is not undone by a table rebuild)
ALTER TABLE "Shop" ADD COLUMN "payoutPeriodTotal" TEXT NOT NULL DEFAULT '300.00';
