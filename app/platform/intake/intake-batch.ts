import { randomBytes } from "node:crypto";
import { lastOfInstant, type SqlDialect } from "../db/sql-dialect";
import type { NewJob } from "../queue/job-row";
import { batchOutcomes, planBatch, type IntakeResult, type IntakeWrite, type OrderRecordRow, type OrderWebhook, type ShopState } from "../../domains/referrals/order-intake";
import { PIPELINE_DEFAULTS, readPipelineSettings, type PipelineSettings } from "../../domains/referrals/pipeline-settings";

// One batch of order webhooks against a database: read the shops' state,
// plan every webhook, store the rows in one transaction. The same on both
// databases but for the SQL placeholders and how a time is stored. Plain
// SQL, because Prisma's per-row cost (~200 µs measured) is the whole
// acknowledgement budget; the tables are Prisma's, written the way Prisma
// writes them.

export type Value = string | number | boolean | Date | null;
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
  /** The table and columns of each statement in sqls, for a store that inserts many rows per statement. */
  targets: { table: string; columns: string[] }[];
  groups: Group[];
}

export interface IntakeDatabase {
  dialect: SqlDialect;
  /** Params are values, or on a dialect with arrayParams, lists of values. */
  select(sql: string, params: (Value | Value[])[]): Row[] | Promise<Row[]>;
  /** Inserts the batch in one transaction; for each group, whether its first row was new. */
  insert(batch: Batch): boolean[] | Promise<boolean[]>;
}

/** Stores what a batch of webhooks asks for; the outcome of each. */
export async function intakeBatch(db: IntakeDatabase, hooks: OrderWebhook[]): Promise<IntakeResult[]> {
  // An empty batch warms the store up: it reads the state of a shop that does not exist.
  const shops = hooks.length > 0 ? [...new Set(hooks.map((hook) => hook.shop))] : ["warm-up.invalid"];
  const states = await shopStates(db, shops);
  const plan = planBatch(hooks, states);
  const fresh = plan.writes.length > 0 ? await db.insert(batchOf(plan.writes, db.dialect)) : [];
  return batchOutcomes(plan, fresh);
}

/** The id under which Shopify's session storage keeps a shop's offline session (what authenticate.webhook loads). */
const offlineSessionId = (shop: string) => `offline_${shop}`;

const SETTING_COLUMNS = Object.keys(PIPELINE_DEFAULTS) as (keyof PipelineSettings)[];

async function shopStates(db: IntakeDatabase, shops: string[]): Promise<Map<string, ShopState>> {
  const rows = db.dialect.arrayParams ? await shopRowsAtOnce(db, shops) : await shopRowsApart(db, shops);
  const byShop = new Map(rows.map((row) => [String(row.shop), row]));
  return new Map(
    shops.map((shop) => {
      const row = byShop.get(shop);
      const stored = Object.fromEntries(SETTING_COLUMNS.map((c) => [c, row?.[c] ?? PIPELINE_DEFAULTS[c]])) as Record<keyof PipelineSettings, string>;
      return [shop, { hasSession: row?.hasSession === true, settings: readPipelineSettings(stored) }];
    }),
  );
}

/** The Shop table's settings columns (no other table read with it has columns of these names). */
const SETTINGS = SETTING_COLUMNS.map((c) => `"${c}"`).join(", ");

/**
 * PostgreSQL: one statement whatever the number of shops (its text never
 * changes, so the server keeps it prepared), each shop's settings (null
 * without a Shop row) and whether its offline session exists.
 */
const SHOPS_BY_ARRAY = `SELECT s."shop", ${SETTINGS}, EXISTS (SELECT 1 FROM "Session" WHERE "Session"."id" = s."sessionId") AS "hasSession"
FROM unnest($1::text[], $2::text[]) AS s("shop", "sessionId") LEFT JOIN "Shop" ON "Shop"."shop" = s."shop"`;

const shopRowsAtOnce = (db: IntakeDatabase, shops: string[]) => db.select(SHOPS_BY_ARRAY, [shops, shops.map(offlineSessionId)]);

/** SQLite: the Shop rows, then the sessions (two prepared statements on the thread's own connection). */
async function shopRowsApart(db: IntakeDatabase, shops: string[]): Promise<Row[]> {
  const marks = shops.map((_, i) => db.dialect.placeholder(i)).join(", ");
  const settings = await db.select(`SELECT "shop", ${SETTINGS} FROM "Shop" WHERE "shop" IN (${marks})`, shops);
  const sessions = await db.select(`SELECT "id" FROM "Session" WHERE "id" IN (${marks})`, shops.map(offlineSessionId));
  const settingsByShop = new Map(settings.map((row) => [String(row.shop), row]));
  const sessionIds = new Set(sessions.map((row) => String(row.id)));
  return shops.map((shop) => ({ ...settingsByShop.get(shop), shop, hasSession: sessionIds.has(offlineSessionId(shop)) }));
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
 * The INSERTs of a batch. The planner builds every row of a table the same
 * way, so the columns are read off the first row of each table and each row
 * is a list of values in that order: no per-row SQL or objects, which
 * matters at thousands of webhooks a second.
 */
function batchOf(writes: IntakeWrite[], dialect: SqlDialect): Batch {
  const nowMs = Date.now();
  const now = dialect.time(new Date(nowMs));
  const recordFields = Object.keys(writes.find((w) => w.record)?.record ?? {}) as (keyof OrderRecordRow)[];
  const jobFields = Object.keys(writes.find((w) => w.job)?.job ?? {}) as (keyof NewJob)[];
  const targets = [
    { table: "OrderRecord", columns: ["id", ...recordFields, "createdAt", "updatedAt"] },
    { table: "Job", columns: ["id", ...jobFields, "status", "createdAt", "updatedAt"] },
  ];
  const sqls = targets.map(({ table, columns }) => insertSql(table, columns, dialect));
  const values = <R extends object>(row: R, fields: (keyof R)[], extra: Value[]): Value[] => {
    const params: Value[] = [orderedId(nowMs)];
    for (const field of fields) {
      const value = row[field] as Value;
      params.push(value instanceof Date ? dialect.time(value) : typeof value === "boolean" ? dialect.flag(value) : value);
    }
    for (const value of extra) params.push(value);
    return params;
  };
  const groups = writes.map(({ record, job }) => {
    const group: Group = [];
    if (record) group.push([0, values(record, recordFields, [now, now])]);
    if (job) group.push([1, values(job, jobFields, ["queued", now, now])]);
    return group;
  });
  return { sqls, targets, groups };
}
