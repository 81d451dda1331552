import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { createAdapter } from "../../app/db/adapter.server";
import { applyMigrations, checksumOf, committedMigrations, MigrationError } from "../../app/db/migrate.server";
import { createEmptyDatabase } from "../support/database";

// `npm run setup` migrates with the app's own runner (Prisma's deploy fails on
// PostgreSQL through the driver adapter): the same migrations, booked the
// way Prisma books them, so Prisma's own status agrees.

const emptyDatabase = () => createEmptyDatabase({ postgresServerUrl: inject("postgresServerUrl") || undefined, sqliteFolder: inject("sqliteFolder") });

async function query(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const connection = await createAdapter(url).connect();
  try {
    const result = await connection.queryRaw({ sql, args: [], argTypes: [] });
    return result.rows.map((row) => Object.fromEntries(result.columnNames.map((name, i) => [name, row[i]])));
  } finally {
    await connection.dispose();
  }
}

describe("the migration runner", () => {
  it("applies every committed migration once, booked with Prisma's checksums, and Prisma's status agrees", async () => {
    const url = await emptyDatabase();
    const committed = committedMigrations(url);
    expect(committed.length).toBeGreaterThanOrEqual(3);

    expect(await applyMigrations(url)).toEqual(committed.map((m) => m.name));
    expect(await applyMigrations(url)).toEqual([]);

    const booked = await query(url, `SELECT "migration_name", "checksum", "finished_at", "applied_steps_count" FROM "_prisma_migrations" ORDER BY "migration_name"`);
    expect(booked.map((row) => [row.migration_name, row.checksum, Number(row.applied_steps_count)])).toEqual(
      committed.map((m) => [m.name, checksumOf(m.sql), 1]),
    );
    expect(booked.every((row) => row.finished_at !== null)).toBe(true);
    expect(await query(url, `SELECT COUNT(*) AS "n" FROM "Job"`)).toEqual([{ n: expect.anything() }]);

    const status = await promisify(execFile)("npx", ["prisma", "migrate", "status"], { env: { ...process.env, DATABASE_URL: url } });
    expect(status.stdout).toMatch(/Database schema is up to date/);
  });

  it("rolls a failing migration back whole, names it, and books nothing for it", async () => {
    const url = await emptyDatabase();
    const broken = { name: "29991231000000_broken", sql: `CREATE TABLE "Half" ("id" INTEGER);\nINSERT INTO "NoSuchTable" VALUES (1);` };

    const failure = await applyMigrations(url, [...committedMigrations(url), broken]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as Error).message).toMatch(/^Migration 29991231000000_broken failed and was rolled back: .*NoSuchTable/);

    expect(await query(url, `SELECT "migration_name" FROM "_prisma_migrations" WHERE "migration_name" = '${broken.name}'`)).toEqual([]);
    await expect(query(url, `SELECT * FROM "Half"`)).rejects.toThrow();
    // The migrations before it stay applied; a fixed deploy goes on from there.
    expect(await applyMigrations(url)).toEqual([]);
  });
});
