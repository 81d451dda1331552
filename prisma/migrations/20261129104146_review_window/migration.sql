-- AlterTable (written by hand: SQLite adds the column in place, so a migration of another branch that also changes "Shop" is not undone by a table rebuild)
ALTER TABLE "Shop" ADD COLUMN "reviewWindowDays" INTEGER NOT NULL DEFAULT 0;
