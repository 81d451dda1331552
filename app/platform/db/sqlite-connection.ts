import Database from "better-sqlite3";

/**
 * The page cache of each of the app's SQLite connections, in KiB. SQLite as
 * better-sqlite3 builds it keeps up to 16 MB a connection, and the app
 * process has several (Prisma's, the plain SQL's, the intake's and the job
 * worker's), whose caches filled as a burst's orders were written and read:
 * the process then held the same pages several times over, beside the
 * kernel's page cache of the same file, which gives them back as cheaply.
 */
export const SQLITE_CACHE_KIB = 4_000;

/**
 * Every SQLite connection of the app: write-ahead logging lets the app and
 * worker processes read while one writes; synchronous stays FULL so an
 * acknowledged webhook survives a power cut; `busyTimeoutMs` is how long a
 * write waits for another connection's lock before SQLite says busy.
 */
export function sqlitePragmas(busyTimeoutMs: number): string[] {
  return ["journal_mode = WAL", "synchronous = FULL", `busy_timeout = ${busyTimeoutMs}`, `cache_size = -${SQLITE_CACHE_KIB}`];
}

/** A better-sqlite3 connection with the app's settings (sqlitePragmas). */
export function openSqlite(path: string, busyTimeoutMs: number): Database {
  const db = new Database(path);
  for (const pragma of sqlitePragmas(busyTimeoutMs)) db.pragma(pragma);
  return db;
}
