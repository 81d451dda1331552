import { randomBytes } from "node:crypto";
import { lastOfInstant, type SqlDialect } from "../db/sql-dialect";
import { batchOutcomes, planBatch, readBatch, type BatchRead } from "./plan";
import type { AnyIntakePlanner, Delivery, IntakeResult, IntakeTable, IntakeValue, IntakeWrite, ShopState } from "./planner";

// One batch of deliveries against a database: read the shops' state, read
// every delivery with the planner, run the planner's lookup for the batch
// (when it has one), plan every delivery, store the rows in one transaction. The
// same on both databases but for the SQL placeholders and how a time is
// stored. Plain SQL, because Prisma's per-row cost (~200 µs measured) is the
// whole acknowledgement budget; the tables are Prisma's, written the way
// Prisma writes them.

export type Value = IntakeValue;
export { POSTGRES, SQLITE, type SqlDialect } from "../db/sql-dialect";
export type Row = Record<string, Value>;

/** A write's rows, in the order they are inserted: the statement of each (an index into Batch.sqls) and its values. */
type Group = [sqlIndex: number, params: Value[]][];

/**
 * A batch as the database takes it. When the first row of a group already
 * exists (its order record, or the job of a cancellation or refund), the
 * delivery is a repeat and the rest of its rows are not inserted.
 */
export interface Batch {
  sqls: string[];
  /** The table, columns and unique key of each statement in sqls, for a store that inserts many rows per statement. */
  targets: { table: string; columns: string[]; conflictKey: readonly string[] }[];
  groups: Group[];
}

export interface IntakeDatabase {
  dialect: SqlDialect;
  /** Params are values, or on a dialect with arrayParams, lists of values. */
  select(sql: string, params: (Value | Value[])[]): Row[] | Promise<Row[]>;
  /** Inserts the batch in one transaction; for each group, whether its first row was new. */
  insert(batch: Batch): boolean[] | Promise<boolean[]>;
}

/** Stores what a batch of deliveries asks for, planned by `planner`; the outcome of each. */
export type BatchIntake = (db: IntakeDatabase, deliveries: Delivery[]) => Promise<IntakeResult[]>;

export function batchIntake(planner: AnyIntakePlanner): BatchIntake {
  const shopStates = shopStatesOf(planner);
  const batchOf = batchesOf(planner.tables);
  return async (db, deliveries) => {
    // An empty batch warms the store up: it reads the state of a shop that does not exist.
    const shops = deliveries.length > 0 ? [...new Set(deliveries.map((delivery) => delivery.shop))] : ["warm-up.invalid"];
    const read = readBatch(planner, deliveries, await shopStates(db, shops));
    const plan = planBatch(planner, read, await lookUp(planner, db, read));
    const fresh = plan.writes.length > 0 ? await db.insert(batchOf(plan.writes, db.dialect)) : [];
    return batchOutcomes(plan, fresh);
  };
}

/** What the planner's lookup finds for the batch: one statement, or none when the planner needs none. */
async function lookUp(planner: AnyIntakePlanner, db: IntakeDatabase, { readable }: BatchRead): Promise<unknown> {
  if (!planner.lookup) return undefined;
  const query = readable.length > 0 ? planner.lookup.query(readable, db.dialect) : null;
  return planner.lookup.found(query ? await db.select(query.sql, query.params) : []);
}

/** The id under which Shopify's session storage keeps a shop's offline session (what authenticate.webhook loads). */
const offlineSessionId = (shop: string) => `offline_${shop}`;

/** The shops' state: the planner's columns of each Shop row (its defaults without one), and whether the shop's offline session exists. */
function shopStatesOf(planner: AnyIntakePlanner) {
  const columns = Object.keys(planner.shopColumns);
  // No other table read with Shop has columns of these names.
  const selected = columns.map((c) => `"${c}"`).join(", ");
  /**
   * PostgreSQL: one statement whatever the number of shops (its text never
   * changes, so the server keeps it prepared), each shop's columns (null
   * without a Shop row) and whether its offline session exists.
   */
  const byArray = `SELECT s."shop", ${selected}, EXISTS (SELECT 1 FROM "Session" WHERE "Session"."id" = s."sessionId") AS "hasSession"
FROM unnest($1::text[], $2::text[]) AS s("shop", "sessionId") LEFT JOIN "Shop" ON "Shop"."shop" = s."shop"`;
  const rowsAtOnce = (db: IntakeDatabase, shops: string[]) => db.select(byArray, [shops, shops.map(offlineSessionId)]);

  /** SQLite: the Shop rows, then the sessions (two prepared statements on the thread's own connection). */
  async function rowsApart(db: IntakeDatabase, shops: string[]): Promise<Row[]> {
    const marks = shops.map((_, i) => db.dialect.placeholder(i)).join(", ");
    const settings = await db.select(`SELECT "shop", ${selected} FROM "Shop" WHERE "shop" IN (${marks})`, shops);
    const sessions = await db.select(`SELECT "id" FROM "Session" WHERE "id" IN (${marks})`, shops.map(offlineSessionId));
    const settingsByShop = new Map(settings.map((row) => [String(row.shop), row]));
    const sessionIds = new Set(sessions.map((row) => String(row.id)));
    return shops.map((shop) => ({ ...settingsByShop.get(shop), shop, hasSession: sessionIds.has(offlineSessionId(shop)) }));
  }

  return async (db: IntakeDatabase, shops: string[]): Promise<Map<string, ShopState<unknown>>> => {
    const rows = db.dialect.arrayParams ? await rowsAtOnce(db, shops) : await rowsApart(db, shops);
    const byShop = new Map(rows.map((row) => [String(row.shop), row]));
    return new Map(
      shops.map((shop) => {
        const row = byShop.get(shop);
        const stored = Object.fromEntries(columns.map((c) => [c, row?.[c] ?? planner.shopColumns[c]!]));
        return [shop, { hasSession: row?.hasSession === true, settings: planner.shopSettings(stored as Record<string, string>) }];
      }),
    );
  };
}

const processTag = randomBytes(5).toString("hex");
let sequence = 0;

/**
 * A unique row id that sorts by creation time, as Prisma's cuid does: new
 * rows land at the end of the id index instead of all over it, which makes a
 * batch's commit touch a few pages rather than hundreds (3× faster,
 * measured). Unique across processes and threads by a random tag drawn once
 * per module instance.
 */
export function orderedId(now = Date.now()): string {
  sequence += 1;
  return `${idPrefix(now)}${sequence.toString(36).padStart(6, "0")}`;
}

const idPrefix = lastOfInstant((ms) => `c${ms.toString(36).padStart(9, "0")}${processTag}`);

function insertSql(table: string, columns: string[], dialect: SqlDialect): string {
  return `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((_, i) => dialect.placeholder(i)).join(", ")}) ON CONFLICT DO NOTHING`;
}

/**
 * The INSERTs of a batch, one statement per table. The planner builds every
 * row of a table the same way, so the columns are read off the first row of
 * each table and each row is a list of values in that order: no per-row SQL
 * or objects, which matters at thousands of webhooks a second.
 */
function batchesOf(tables: readonly IntakeTable[]) {
  const tableIndex = new Map(tables.map(({ table }, t) => [table, t]));
  const indexOf = (table: string) => {
    const t = tableIndex.get(table);
    if (t === undefined) throw new Error(`The planner writes ${table}, which is not one of its tables`);
    return t;
  };
  const fixedColumns = tables.map(({ fixed }) => Object.keys(fixed ?? {}));
  return (writes: IntakeWrite[], dialect: SqlDialect): Batch => {
    const nowMs = Date.now();
    const now = dialect.time(new Date(nowMs));
    const sqlValue = (value: Value) => (value instanceof Date ? dialect.time(value) : typeof value === "boolean" ? dialect.flag(value) : value);
    const fields: (string[] | undefined)[] = tables.map(() => undefined);
    for (const write of writes) for (const row of write) fields[indexOf(row.table)] ??= Object.keys(row.values);
    const targets = tables.map(({ table, conflictKey }, t) => ({ table, conflictKey, columns: ["id", ...(fields[t] ?? []), ...fixedColumns[t]!, "createdAt", "updatedAt"] }));
    const extras = tables.map(({ fixed }) => [...Object.values(fixed ?? {}).map(sqlValue), now, now]);
    const sqls = targets.map(({ table, columns }) => insertSql(table, columns, dialect));
    const groups = writes.map((write) =>
      write.map(({ table, values }): Group[number] => {
        const t = indexOf(table);
        const params: Value[] = [orderedId(nowMs)];
        for (const field of fields[t]!) params.push(sqlValue(values[field] as Value));
        for (const value of extras[t]!) params.push(value);
        return [t, params];
      }),
    );
    return { sqls, targets, groups };
  };
}
