import { Prisma } from "@prisma/client";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseKind, type DatabaseKind } from "./adapter.server";
import { POSTGRES, SQLITE, timeOf, type SqlDialect, type SqlValue } from "./sql-dialect";

export { timeOf };
import { countStatements } from "./statement-counts";
import { sqliteWriteLock } from "./write-lock";
import { openSqlite } from "./sqlite-connection";

// Plain SQL straight to the driver, for the worker's hot path: a job's
// claim, its order's reads and its settle. Through Prisma each of those
// statements costs its query compiler and client about a millisecond of CPU;
// here, tens of microseconds. Everything else keeps using Prisma.

/** One statement with :named parameters, bound the database's way. */
export interface Statement {
  sql: string;
  values?: Record<string, SqlValue>;
}

export type SqlRow = Record<string, unknown>;

/** Binds each item under a name of its own in `values` (`prefix0`, `prefix1`...); their placeholders, in the items' order (for an IN list, or one branch per value). */
export function bindEach(prefix: string, items: readonly SqlValue[], values: Record<string, SqlValue>): string[] {
  return items.map((item, i) => {
    values[`${prefix}${i}`] = item;
    return `:${prefix}${i}`;
  });
}

export interface PlainSql {
  readonly kind: DatabaseKind;
  readonly dialect: SqlDialect;
  /** The rows of one statement (a SELECT, or a write with RETURNING). */
  rows<T extends SqlRow = SqlRow>(statement: Statement): Promise<T[]>;
  /**
   * The rows of a statement already bound the database's way ($1... or ?).
   * Each text is prepared once: PostgreSQL keeps it parsed on each
   * connection (and plans it for each call's values), SQLite in its
   * statement cache.
   */
  boundRows(text: string, params: unknown[]): Promise<SqlRow[]>;
  /** One write on its own; how many rows it changed. */
  run(statement: Statement): Promise<number>;
  /**
   * The groups in one transaction, in order: a group's first statement is
   * its condition, and when it changes no row the rest of the group is
   * skipped. Which groups were applied.
   */
  applyGroups(groups: Statement[][]): Promise<boolean[]>;
  close(): Promise<void>;
}

/**
 * The statement with its :names bound the dialect's way: PostgreSQL numbers
 * its parameters ($1, reused), SQLite takes them in order (?). A value is
 * written as Prisma stores it (times, flags).
 */
export function bindNamed(statement: Statement, kind: DatabaseKind): [string, unknown[]] {
  const dialect = kind === "sqlite" ? SQLITE : POSTGRES;
  const values = statement.values ?? {};
  const params: unknown[] = [];
  const numbered = new Map<string, number>();
  const stored = (value: SqlValue) => (value instanceof Date ? dialect.time(value) : typeof value === "boolean" ? dialect.flag(value) : value);
  const text = statement.sql.replace(/(?<!:):([a-zA-Z][a-zA-Z0-9]*)/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`SQL: no value for :${name}`);
    if (kind === "sqlite") {
      params.push(stored(values[name]!));
      return "?";
    }
    if (!numbered.has(name)) {
      params.push(stored(values[name]!));
      numbered.set(name, params.length);
    }
    return `$${numbered.get(name)}`;
  });
  return [text, params];
}


type Convert = (value: unknown) => unknown;
const CONVERSIONS: Partial<Record<string, Convert>> = {
  DateTime: timeOf,
  // SQLite keeps a flag as 0 or 1.
  Boolean: (value) => (value === null || value === undefined ? null : value === true || Number(value) === 1),
  Int: (value) => (value === null || value === undefined ? null : Number(value)),
};
const modelConversions = new Map<string, [string, Convert][]>();

/** A model's fields as Prisma's schema describes them (the one source of the columns' types for plain SQL). */
export function modelFields(model: string) {
  return Prisma.dmmf.datamodel.models.find((m) => m.name === model)?.fields ?? [];
}

/** A row read with plain SQL as Prisma would have given it (times as Dates, flags as booleans), from the schema's field types. */
export function asModel<T>(model: Prisma.ModelName, row: SqlRow): T {
  let conversions = modelConversions.get(model);
  if (!conversions) {
    conversions = modelFields(model).flatMap((f) => (f.kind === "scalar" && CONVERSIONS[f.type] ? [[f.name, CONVERSIONS[f.type]!] as [string, Convert]] : []));
    modelConversions.set(model, conversions);
  }
  const converted: SqlRow = { ...row };
  for (const [name, convert] of conversions) if (name in row) converted[name] = convert(row[name]);
  return converted as T;
}

/**
 * SQLite: a connection of its own, with its statements prepared once. A
 * write never waits for the lock inside the driver (that would stop this
 * thread's event loop, and with it a Prisma transaction of this same thread
 * that holds the lock): it gives the loop back and tries again, for as long
 * as `lockWaitMs`.
 */
function sqliteSql(path: string, lockWaitMs: number): PlainSql {
  let db: Database | undefined;
  const prepared = new Map<string, Database.Statement>();
  const open = () => {
    if (db) return db;
    db = openSqlite(path, 0);
    return db;
  };
  const statement = (sql: string): Database.Statement => {
    const found = prepared.get(sql);
    if (found) return found;
    const made = open().prepare(sql);
    prepared.set(sql, made);
    return made;
  };
  const processLock = sqliteWriteLock();
  /** `write` under this process's write lock (write-lock.ts); SQLITE_BUSY (another process, a Prisma transaction) is tried again. */
  const withLock = <T>(write: () => T, writes = true): Promise<T> => processLock.whenFree(write, lockWaitMs, writes ? "other" : "reader");
  const bound = (s: Statement) => {
    countStatements("plain");
    const [text, params] = bindNamed(s, "sqlite");
    return [statement(text), params] as const;
  };
  const inTransaction = (groups: Statement[][]) => {
    const connection = open();
    countStatements("plain", 2);
    statement("BEGIN IMMEDIATE").run();
    try {
      const applied = groups.map((group) => {
        for (const [k, s] of group.entries()) {
          const [st, params] = bound(s);
          if (st.run(...params).changes === 0 && k === 0) return false;
        }
        return true;
      });
      statement("COMMIT").run();
      return applied;
    } catch (error) {
      if (connection.inTransaction) statement("ROLLBACK").run();
      throw error;
    }
  };
  return {
    kind: "sqlite",
    dialect: SQLITE,
    rows<T extends SqlRow>(s: Statement) {
      return this.boundRows(...bindNamed(s, "sqlite")) as Promise<T[]>;
    },
    async boundRows(text, params) {
      countStatements("plain");
      const st = statement(text);
      return withLock(() => (st.reader ? (st.all(...params) as SqlRow[]) : (st.run(...params), [])), !st.readonly);
    },
    async run(s) {
      const [st, params] = bound(s);
      return withLock(() => st.run(...params).changes);
    },
    applyGroups: (groups) => withLock(() => inTransaction(groups)),
    async close() {
      db?.close();
      db = undefined;
      prepared.clear();
    },
  };
}

/** PostgreSQL's timestamp(3) columns hold UTC without a zone, as Prisma writes them: read them as UTC whatever the process's time zone. */
const TIMESTAMP_OID = 1114;
const utcTypes = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP_OID ? (text: string) => new Date(`${text.replace(" ", "T")}Z`) : pg.types.getTypeParser(oid, format),
};

/**
 * PostgreSQL: a small pool of its own, beside Prisma's. `keepIdle` keeps its
 * connections open however long they sit idle (pg closes them after 10 s),
 * for a pool whose first use after a quiet spell must not wait to connect.
 */
function postgresSql(url: string, poolSize: number, keepIdle: boolean): PlainSql {
  let pool: ReturnType<typeof newPool> | undefined;
  const newPool = () => {
    const made = new pg.Pool({
      connectionString: url,
      max: poolSize,
      types: utcTypes,
      allowExitOnIdle: true,
      // Each statement is planned for its values, as if it were not prepared: a plan made once for any values
      // (PostgreSQL's choice after five runs) was made while the tables were small and read whole ones later.
      options: "-c plan_cache_mode=force_custom_plan",
      ...(keepIdle ? { idleTimeoutMillis: 0 } : {}),
    });
    // An idle connection that the server ends (a restart, a failover, an operator, a proxy's idle
    // limit) reports it here; unheard, the error would end the process. The pool has already let the
    // connection go, and the next statement opens a new one.
    made.on("error", () => undefined);
    return made;
  };
  const connections = () => (pool ??= newPool());
  const names = new Map<string, string>();
  // Every statement is prepared: its texts are the hot path's few (values are always bound), each parsed once per connection.
  const prepared = (text: string, values: unknown[]): { name: string; text: string; values: unknown[] } => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `prepared_${names.size}`));
    return { name, text, values };
  };
  async function inTransaction<T>(work: (query: (text: string, params: unknown[]) => Promise<{ changed: number }>) => Promise<T>): Promise<T> {
    const client = await connections().connect();
    try {
      countStatements("plain", 2);
      await client.query("BEGIN");
      const result = await work(async (text, params) => {
        countStatements("plain");
        const answer = await client.query(prepared(text, params));
        return { changed: answer.rowCount ?? 0 };
      });
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
  return {
    kind: "postgresql",
    dialect: POSTGRES,
    rows<T extends SqlRow>(s: Statement) {
      return this.boundRows(...bindNamed(s, "postgresql")) as Promise<T[]>;
    },
    async boundRows(text, params) {
      countStatements("plain");
      return (await connections().query(prepared(text, params))).rows;
    },
    async run(s) {
      countStatements("plain");
      return (await connections().query(prepared(...bindNamed(s, "postgresql")))).rowCount ?? 0;
    },
    applyGroups(groups) {
      return inTransaction(async (query) => {
        const applied: boolean[] = [];
        for (const group of groups) {
          let ok = true;
          for (const [k, s] of group.entries()) {
            if ((await query(...bindNamed(s, "postgresql"))).changed === 0 && k === 0) {
              ok = false;
              break;
            }
          }
          applied.push(ok);
        }
        return applied;
      });
    },
    async close() {
      await pool?.end();
      pool = undefined;
    },
  };
}

export function createPlainSql(url: string, options: { lockWaitMs?: number; poolSize?: number; keepIdle?: boolean } = {}): PlainSql {
  return databaseKind(url) === "postgresql"
    ? postgresSql(url, options.poolSize ?? 4, options.keepIdle ?? false)
    : sqliteSql(url.slice("file:".length), options.lockWaitMs ?? 5_000);
}

const byClient = new WeakMap<object, PlainSql>();

/** Makes `sql` the plain SQL of the database a Prisma client is connected to (db.server.ts's createPrismaClient does it). */
export function attachPlainSql(client: object, sql: PlainSql): void {
  byClient.set(client, sql);
}

/** The plain SQL of the same database as this Prisma client. */
export function plainSql(client: object): PlainSql {
  const sql = byClient.get(client);
  if (!sql) throw new Error("This Prisma client was not made by createPrismaClient: it has no plain SQL beside it");
  return sql;
}
