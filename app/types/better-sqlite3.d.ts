// The part of better-sqlite3 the app calls directly (the intake store's
// reader). The driver itself comes with Prisma's SQLite adapter.
declare module "better-sqlite3" {
  namespace Database {
    interface Statement {
      all(...params: unknown[]): unknown[];
      run(...params: unknown[]): { changes: number };
    }
  }
  class Database {
    constructor(path: string, options?: { readonly?: boolean });
    prepare(sql: string): Database.Statement;
    close(): void;
  }
  export = Database;
}
