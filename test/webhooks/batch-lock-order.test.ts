// Two app processes' batches that hold the same orders must take their row
// locks in one order, or each can wait for a row the other inserted first:
// PostgreSQL then ends the wait by failing one of them (a deadlock), and
// every webhook of that batch is answered 503. Here another transaction holds
// order X uncommitted, as another process's batch would, while a batch of
// [Y, X] is stored; the other transaction then inserts Y.
import pg from "pg";
import type { IntakeResult } from "../../app/referrals/order-intake";
import { afterAll, beforeEach, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { databaseKind } from "../../app/db/adapter.server";
import { RawJson } from "../../app/referrals/order-intake";
import { intakeStoreFor } from "../../app/wiring/order-intake.server";
import { resetDatabase } from "../support/database";
import { shopifyOrder } from "../support/orders";
import { installShop } from "../support/sessions";
import { TEST_SHOP } from "../support/shopify-requests";

const onPostgres = databaseKind(process.env.DATABASE_URL!) === "postgresql";
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

/** Resolves once some session waits for a row lock (the batch, behind the other transaction's row). */
async function someoneWaitsForALock(client: InstanceType<typeof pg.Client>) {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`);
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the batch never waited for the other transaction's row");
}

it.runIf(onPostgres)("stores a batch whose orders another process is storing in the opposite order, without a deadlock", async () => {
  const other = new pg.Client({ connectionString: process.env.DATABASE_URL! });
  const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL! });
  await Promise.all([other.connect(), watcher.connect()]);
  try {
    await other.query("BEGIN");
    await insertRecord(other, X);
    // Caught now: with the rows in the wrong order, PostgreSQL may fail the batch rather than the other transaction.
    const stored = store!.intake([delivery(Y), delivery(X)]).catch((error: Error) => error);
    await someoneWaitsForALock(watcher);
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
