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

export interface Migration {
  name: string;
  sql: string;
}

interface Connection {
  rows(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs a migration's script and books it, in one transaction. */
  applyInTransaction(script: string, book: { sql: string; params: unknown[] }): Promise<void>;
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

export class MigrationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "MigrationError";
  }
}

/** Applies the migrations the database has not had yet; the names of those applied. */
export async function applyMigrations(url: string, migrations: Migration[] = committedMigrations(url)): Promise<string[]> {
  const kind = databaseKind(url);
  const connection = kind === "postgresql" ? await postgresConnection(url) : sqliteConnection(url);
  try {
    await connection.rows(TABLE_SQL[kind]);
    const booked = await connection.rows(`SELECT "migration_name", "finished_at", "rolled_back_at" FROM "_prisma_migrations"`);
    const failed = booked.find((row) => row.finished_at === null && row.rolled_back_at === null);
    if (failed) {
      throw new MigrationError(
        `Migration ${String(failed.migration_name)} failed earlier and was not rolled back; resolve it (prisma migrate resolve) before deploying again.`,
      );
    }
    const done = new Set(booked.filter((row) => row.finished_at !== null).map((row) => String(row.migration_name)));
    const applied: string[] = [];
    for (const migration of migrations.filter((m) => !done.has(m.name))) {
      const mark = (i: number) => (kind === "postgresql" ? `$${i}` : "?");
      const book = {
        sql: `INSERT INTO "_prisma_migrations" ("id", "checksum", "migration_name", "started_at", "finished_at", "applied_steps_count") VALUES (${[1, 2, 3, 4, 5, 6].map(mark).join(", ")})`,
        params: [randomUUID(), checksumOf(migration.sql), migration.name, ...sameInstant(kind), 1],
      };
      try {
        await connection.applyInTransaction(migration.sql, book);
      } catch (error) {
        throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`, { cause: error });
      }
      applied.push(migration.name);
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
  // One deploy at a time: a second one waits here, then finds the migrations booked.
  await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  return {
    rows: async (sql, params) => (await client.query(sql, params)).rows,
    async applyInTransaction(script, book) {
      await client.query("BEGIN");
      try {
        await client.query(script);
        await client.query(book.sql, book.params);
        await client.query("COMMIT");
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
  db.pragma("busy_timeout = 5000");
  return {
    rows: async (sql, params = []) => {
      const statement = db.prepare(sql);
      return /^\s*(SELECT|PRAGMA)/i.test(sql) ? (statement.all(...params) as Record<string, unknown>[]) : (statement.run(...params), []);
    },
    async applyInTransaction(script, book) {
      db.transaction(() => {
        db.exec(script);
        db.prepare(book.sql).run(...book.params);
      }).immediate();
    },
    async close() {
      db.close();
    },
  };
}
