import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { createAdapter } from "../../../app/platform/db/adapter.server";
import { applyMigrations, checksumOf, committedMigrations, fileMatchesChecksum, MigrationError } from "../../../app/platform/db/migrate.server";
import { createEmptyDatabase } from "../../support/database";

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
    // Prisma's CLI alone takes 14 s on PostgreSQL on a 2-core machine running two test files.
  }, 60_000);

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

  it("stops at a migration whose file changed after it was applied, naming it, and applies nothing after it", async () => {
    const url = await emptyDatabase();
    const committed = committedMigrations(url);
    const extra = { name: "29991231000000_extra", sql: `CREATE TABLE "Extra" ("id" INTEGER);\n` };
    await applyMigrations(url, [...committed, extra]);

    // GIVEN the extra migration edited after it ran, and a new one after it
    const edited = { ...extra, sql: `CREATE TABLE "Extra" ("id" INTEGER, "note" TEXT);\n` };
    const later = { name: "29991231000001_later", sql: `CREATE TABLE "Later" ("id" INTEGER);\n` };
    // WHEN the runner starts THEN it refuses, naming the changed file, and the new migration is not applied
    const failure = await applyMigrations(url, [...committed, edited, later]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as Error).message).toBe(
      "Migration 29991231000000_extra was changed after it was applied: its migration.sql no longer has the checksum booked in _prisma_migrations. " +
        "Put the file back as it was applied, and make the change in a new migration.",
    );
    await expect(query(url, `SELECT * FROM "Later"`)).rejects.toThrow();

    // A committed migration edited is named the same way, each changed file on its own line
    const [first, ...rest] = committed;
    const both = await applyMigrations(url, [{ ...first!, sql: `${first!.sql}-- a comment\n` }, ...rest, edited]).catch((error: unknown) => error);
    expect((both as Error).message.split("\n").map((line) => line.split(" ")[1])).toEqual([first!.name, extra.name]);

    // Line endings changed by git are not a change (Prisma compares the same way)
    expect(await applyMigrations(url, [...committed.map((m) => ({ ...m, sql: m.sql.replaceAll("\n", "\r\n") })), extra])).toEqual([]);
  });

  it("reads the checksums of older Prisma versions, whose hex digits were not zero-padded", () => {
    const sql = "hello";
    expect(checksumOf(sql)).toBe("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
    const unpadded = [...Buffer.from(checksumOf(sql), "hex")].map((byte) => byte.toString(16)).join("");
    expect(unpadded.length).toBeLessThan(64);
    expect(fileMatchesChecksum(sql, unpadded)).toBe(true);
    expect(fileMatchesChecksum(`${sql}!`, unpadded)).toBe(false);
    expect(fileMatchesChecksum(sql, "")).toBe(false);
  });

  it("applies each migration once when two runners start at once", async () => {
    const url = await emptyDatabase();
    // A data migration would run twice without complaint: the count says whether it did.
    const migrations = [
      ...committedMigrations(url),
      { name: "29991231000000_counter", sql: `CREATE TABLE "Counter" ("n" INTEGER NOT NULL);` },
      { name: "29991231000001_count_once", sql: `INSERT INTO "Counter" ("n") VALUES (1);` },
    ];

    const [first, second] = await Promise.all([applyMigrations(url, migrations), applyMigrations(url, migrations)]);

    expect([...first, ...second].sort()).toEqual(migrations.map((m) => m.name));
    expect((await query(url, `SELECT "n" FROM "Counter"`)).map((row) => Number(row.n))).toEqual([1]);
    const booked = await query(url, `SELECT "migration_name" FROM "_prisma_migrations" ORDER BY "migration_name"`);
    expect(booked.map((row) => row.migration_name)).toEqual(migrations.map((m) => m.name));
  });
});
