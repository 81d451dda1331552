// The part of better-sqlite3 the app calls directly (the SQLite intake
// thread, the migration runner, the worker's plain SQL). The driver itself comes with Prisma's
// SQLite adapter.
declare module "better-sqlite3" {
  namespace Database {
    interface Statement {
      /** True for a statement that returns rows. */
      readonly reader: boolean;
      /** True for a statement that changes nothing (a write with RETURNING is a reader, not read-only). */
      readonly readonly: boolean;
      all(...params: unknown[]): unknown[];
      /** The first row, or undefined. */
      get(...params: unknown[]): unknown;
      run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
    }
    interface Transaction<F extends (...args: never[]) => unknown> {
      (...args: Parameters<F>): ReturnType<F>;
      /** BEGIN IMMEDIATE: takes the write lock before the first statement. */
      immediate(...args: Parameters<F>): ReturnType<F>;
    }
  }
  class Database {
    constructor(path: string);
    prepare(sql: string): Database.Statement;
    exec(source: string): void;
    close(): void;
    readonly inTransaction: boolean;
    pragma(source: string): unknown;
    transaction<F extends (...args: never[]) => unknown>(fn: F): Database.Transaction<F>;
  }
  export = Database;
}
