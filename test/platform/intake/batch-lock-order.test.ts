// Two app processes' batches that hold the same orders must take their row
// locks in one order, or each can wait for a row the other inserted first:
// PostgreSQL then ends the wait by failing one of them (a deadlock), and
// every webhook of that batch is answered 503. Here another transaction holds
// order X uncommitted, as another process's batch would, while a batch of
// [Y, X] is stored; the other transaction then inserts Y.
import pg from "pg";
import { afterAll, beforeEach, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { RawJson, type IntakeResult } from "../../../app/platform/intake/planner";
import { INTAKE_PLANNER } from "../../../app/wiring/intake-planner";
import { intakeStoreFor } from "../../../app/wiring/order-intake.server";
import { resetDatabase, testDatabaseKind } from "../../support/database";
import { shopifyOrder } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";

const onPostgres = testDatabaseKind() === "postgresql";
const store = onPostgres ? intakeStoreFor(process.env.DATABASE_URL!) : undefined;
afterAll(() => store?.close());

beforeEach(async () => {
  await resetDatabase();
  await installShop();
});

/** 64-bit ids; Y sorts after X, as text and as numbers. */
const X = 7_340_312_345_678_901_234n;
const Y = X + 1n;
const delivery = (id: bigint) => ({
  topic: "ORDERS_PAID",
  shop: TEST_SHOP,
  payload: new RawJson(Buffer.from(JSON.stringify(shopifyOrder({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] })))),
  webhookId: `wh-${id}`,
  triggeredAt: null,
});

/** The other process's transaction: an OrderRecord row inserted as its batch would, not yet committed. */
const insertRecord = (client: InstanceType<typeof pg.Client>, id: bigint) =>
  client.query(`INSERT INTO "OrderRecord" ("id", "shop", "orderId", "status", "updatedAt") VALUES ($1, $2, $3, 'queued', now()) ON CONFLICT DO NOTHING`, [`other-${id}`, TEST_SHOP, String(id)]);

/** Resolves once some backend waits for a lock that the backend `holder` (its pid) holds. */
async function waitsFor(watcher: InstanceType<typeof pg.Client>, holder: number) {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    const { rows } = await watcher.query(`SELECT 1 FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid))`, [holder]);
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the batch never waited for the other transaction's row");
}

/** The columns of each unique index of a table but its primary key, as the database has them. */
async function uniqueKeys(table: string): Promise<string[][]> {
  if (onPostgres) {
    const rows = await prisma.$queryRawUnsafe<{ columns: string[] }[]>(
      `SELECT array_agg(a.attname::text ORDER BY k.n) AS columns FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
       WHERE i.indrelid = $1::text::regclass AND i.indisunique AND NOT i.indisprimary AND i.indpred IS NULL GROUP BY i.indexrelid`,
      `"${table}"`,
    );
    return rows.map((row) => row.columns);
  }
  const indexes = await prisma.$queryRawUnsafe<{ name: string; unique: bigint; origin: string; partial: bigint }[]>(`PRAGMA index_list("${table}")`);
  const keys: string[][] = [];
  for (const index of indexes.filter((i) => Number(i.unique) === 1 && i.origin !== "pk" && Number(i.partial) === 0)) {
    const columns = await prisma.$queryRawUnsafe<{ name: string }[]>(`PRAGMA index_info("${index.name}")`);
    if (!columns.every((c) => c.name === "id")) keys.push(columns.map((c) => c.name));
  }
  return keys;
}

it("knows each table's unique key as the database has it", async () => {
  for (const { table, conflictKey } of INTAKE_PLANNER.tables) expect(await uniqueKeys(table)).toEqual([conflictKey]);
});

it.runIf(onPostgres)("stores a batch whose orders another process is storing in the opposite order, without a deadlock", async () => {
  const other = new pg.Client({ connectionString: process.env.DATABASE_URL! });
  const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL! });
  await Promise.all([other.connect(), watcher.connect()]);
  try {
    const { rows } = await other.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    await other.query("BEGIN");
    await insertRecord(other, X);
    // Caught now: with the rows in the wrong order, PostgreSQL may fail the batch rather than the other transaction.
    const stored = store!.intake([delivery(Y), delivery(X)]).catch((error: Error) => error);
    await waitsFor(watcher, rows[0]!.pid);
    // Had the batch inserted Y before waiting on X, this would wait on the batch, which waits on this: a deadlock.
    await insertRecord(other, Y);
    await other.query("COMMIT");
    const results = await stored;
    expect(results).not.toBeInstanceOf(Error);
    expect((results as IntakeResult[]).map((r) => r.outcome)).toEqual(["duplicate", "duplicate"]);
  } finally {
    await other.query("ROLLBACK").catch(() => {});
    await Promise.all([other.end(), watcher.end()]);
  }
  const records = await prisma.orderRecord.findMany({ orderBy: { orderId: "asc" }, select: { id: true, orderId: true } });
  expect(records).toEqual([
    { id: `other-${X}`, orderId: String(X) },
    { id: `other-${Y}`, orderId: String(Y) },
  ]);
});
