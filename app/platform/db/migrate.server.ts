import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseKind, schemaPath } from "./adapter.server";

// Applies the committed migrations (prisma/migrations, or
// prisma/postgresql/migrations) in order, each inside a transaction, and
// books each in _prisma_migrations the way `prisma migrate deploy` does
// (same table, checksum and columns), so `prisma migrate status` agrees.
// It exists because Prisma's own deploy fails on PostgreSQL through the
// driver adapter (prisma/orm issue 27403; decision 006).
//
// Two runners may start at once (two app processes deploying together):
// each migration is applied under the database's write lock, after checking
// that no other runner booked it meanwhile, so it is applied once. A
// migration file changed after it was applied stops the runner, named.

export interface Migration {
  name: string;
  sql: string;
}

type SqlCall = { sql: string; params: unknown[] };

interface Connection {
  rows(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * In one transaction, holding the lock that keeps other runners out: runs
   * a migration's script and books it, unless `booked` finds a row by then
   * (another runner applied it). Whether this call applied it.
   */
  applyOnce(script: string, book: SqlCall, booked: SqlCall): Promise<boolean>;
  close(): Promise<void>;
}

const TABLE_SQL = {
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`,
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL,
    "checksum" TEXT NOT NULL,
    "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL,
    "logs" TEXT,
    "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
  )`,
};

/** Prisma's key for the advisory lock its deploy takes, so ours and Prisma's never run at once. */
const MIGRATION_LOCK_KEY = 72707369;

/** The migrations of a database kind, oldest first. */
export function committedMigrations(url: string, root = "."): Migration[] {
  const folder = join(root, schemaPath(url), "..", "migrations");
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(folder, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(folder, name, "migration.sql"), "utf8") }));
}

export const checksumOf = (sql: string) => createHash("sha256").update(sql).digest("hex");

/**
 * Whether a migration's file is still the one whose checksum was booked,
 * compared as Prisma compares them: the file as it is, or with its line
 * endings turned from Windows' into Unix' or back (git may change them); a
 * row booked by an old Prisma holds the digest's bytes in hex without their
 * leading zeros.
 */
export function fileMatchesChecksum(sql: string, booked: string): boolean {
  const unpadded = booked.length > 0 && booked.length !== 64;
  return [sql, sql.replaceAll("\r\n", "\n"), sql.replaceAll("\n", "\r\n")].some((text) => {
    const digest = createHash("sha256").update(text).digest();
    return (unpadded ? [...digest].map((byte) => byte.toString(16)).join("") : digest.toString("hex")) === booked;
  });
}

export class MigrationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "MigrationError";
  }
}

const changedMessage = (name: string) =>
  `Migration ${name} was changed after it was applied: its migration.sql no longer has the checksum booked in _prisma_migrations. ` +
  "Put the file back as it was applied, and make the change in a new migration.";

/** Applies the migrations the database has not had yet; the names of those applied. */
export async function applyMigrations(url: string, migrations: Migration[] = committedMigrations(url)): Promise<string[]> {
  const kind = databaseKind(url);
  const connection = kind === "postgresql" ? await postgresConnection(url) : sqliteConnection(url);
  try {
    await connection.rows(TABLE_SQL[kind]);
    const booked = await connection.rows(`SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations"`);
    const failed = booked.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new MigrationError(
        `Migration ${String(failed.migration_name)} failed earlier and was not rolled back; resolve it (prisma migrate resolve) before deploying again.`,
      );
    }
    const finished = booked.filter((row) => row.finished_at !== null);
    const changed = migrations.filter((m) => finished.some((row) => row.migration_name === m.name && !fileMatchesChecksum(m.sql, String(row.checksum))));
    if (changed.length > 0) throw new MigrationError(changed.map((m) => changedMessage(m.name)).join("\n"));
    const done = new Set(finished.map((row) => String(row.migration_name)));
    const mark = (i: number) => (kind === "postgresql" ? `$${i}` : "?");
    const applied: string[] = [];
    for (const migration of migrations.filter((m) => !done.has(m.name))) {
      const book = {
        sql: `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at", "applied_steps_count") VALUES (${[1, 2, 3, 4, 5, 6].map(mark).join(", ")})`,
        params: [randomUUID(), checksumOf(migration.sql), migration.name, ...sameInstant(kind), 1],
      };
      const bookedMeanwhile = { sql: `SELECT 1 FROM "_prisma_migrations" WHERE "migration_name" = ${mark(1)} AND "finished_at" IS NOT NULL`, params: [migration.name] };
      try {
        if (await connection.applyOnce(migration.sql, book, bookedMeanwhile)) applied.push(migration.name);
      } catch (error) {
        throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`, { cause: error });
      }
    }
    return applied;
  } finally {
    await connection.close();
  }
}

/** started_at and finished_at, stored as Prisma stores a time in each database. */
function sameInstant(kind: "sqlite" | "postgresql"): [unknown, unknown] {
  const now = new Date();
  const value = kind === "postgresql" ? now : `${now.toISOString().slice(0, -1)}+00:00`;
  return [value, value];
}

async function postgresConnection(url: string): Promise<Connection> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // One runner at a time, for the whole run: a second one waits here, then finds the migrations booked.
  await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  return {
    rows: async (sql, params) => (await client.query(sql, params)).rows,
    async applyOnce(script, book, booked) {
      await client.query("BEGIN");
      try {
        if ((await client.query(booked.sql, booked.params)).rows.length > 0) {
          await client.query("ROLLBACK");
          return false;
        }
        await client.query(script);
        await client.query(book.sql, book.params);
        await client.query("COMMIT");
        return true;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    },
    async close() {
      await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => undefined);
      await client.end();
    },
  };
}

function sqliteConnection(url: string): Connection {
  const path = url.slice("file:".length);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // Another runner holds the write lock while it applies a migration: wait for it, for as long as a big one may take.
  db.pragma("busy_timeout = 60000");
  return {
    rows: async (sql, params = []) => {
      const statement = db.prepare(sql);
      return /^\s*(SELECT|PRAGMA)/i.test(sql) ? (statement.all(...params) as Record<string, unknown>[]) : (statement.run(...params), []);
    },
    async applyOnce(script, book, booked) {
      // BEGIN IMMEDIATE takes the write lock before the check, so no other runner can book the migration between the two.
      return db
        .transaction(() => {
          if (db.prepare(booked.sql).all(...booked.params).length > 0) return false;
          db.exec(script);
          db.prepare(book.sql).run(...book.params);
          return true;
        })
        .immediate();
    },
    async close() {
      db.close();
    },
  };
}
