import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import type Database from "better-sqlite3";
import { countingAdapterFactory, statementCountsEnabled } from "./statement-counts";
import { sqlitePragmas } from "./sqlite-connection";

export type DatabaseKind = "sqlite" | "postgresql";

/** The embedded default, relative to the working directory. */
export const DEFAULT_DATABASE_URL = "file:./data/referral-bridge.sqlite";

export function databaseKind(url: string): DatabaseKind {
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgresql";
  if (url.startsWith("file:")) return "sqlite";
  throw new Error(
    `DATABASE_URL must start with "file:" (SQLite) or "postgresql://" (PostgreSQL); got "${url.split(":")[0]}:..."`,
  );
}

/**
 * Each SQLite connection Prisma opens gets the app's settings
 * (sqlitePragmas, a second process's write waited for 5 s) as it opens,
 * before its first query: a PRAGMA sent later could land inside a
 * transaction, where SQLite refuses to change the safety level.
 */
const SQLITE_PRAGMAS = sqlitePragmas(5_000)
  .map((pragma) => `PRAGMA ${pragma};`)
  .join(" ");

class TunedSqlite extends PrismaBetterSQLite3 {
  override async connect() {
    const connection = await super.connect();
    await connection.executeScript(SQLITE_PRAGMAS);
    beginImmediately(connection);
    return connection;
  }
}

/**
 * Prisma's transactions on SQLite (an interactive `$transaction`, and
 * the one Prisma opens itself for an upsert it cannot send as one
 * statement) begin IMMEDIATE, taking the write lock first. The adapter
 * begins them DEFERRED: such a transaction reads first, and its first
 * write, meeting another connection's write (the order intake, the job
 * worker, another process), fails at once with SQLITE_BUSY ("Operation has
 * timed out"), since SQLite does not wait for a reader that would write.
 */
function beginImmediately(connection: object): void {
  const client = (connection as { client?: Pick<Database, "prepare"> }).client;
  if (typeof client?.prepare !== "function") throw new Error("@prisma/adapter-better-sqlite3 no longer keeps its better-sqlite3 database in `client`: see beginImmediately()");
  const prepare = client.prepare.bind(client);
  client.prepare = (sql: string) => prepare(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql);
}

/** The driver adapter factory for a DATABASE_URL, shared by the app and the Prisma CLI. */
export function createAdapter(url: string) {
  const factory = databaseKind(url) === "postgresql" ? new PrismaPg({ connectionString: url }) : new TunedSqlite({ url: url.slice("file:".length) });
  // The benchmark's statement counts (DB_STATEMENT_COUNTS_DIR), off by default.
  return statementCountsEnabled() ? countingAdapterFactory(factory) : factory;
}

/** The schema file that matches the database kind. */
export function schemaPath(url: string): string {
  return databaseKind(url) === "postgresql" ? "prisma/postgresql/schema.prisma" : "prisma/schema.prisma";
}
