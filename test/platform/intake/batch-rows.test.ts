import "../../entry/admin/browser-env";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startAppServer, testAppEnv, type AppServer } from "../../entry/admin/app-server";
import { resetDatabase } from "../../support/database";
import { shopifyOrder, shopifyRefund } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { jsonId } from "../../../scripts/lib/sample-orders";
import { deliveriesPlanned } from "../../support/kept-deliveries";

// What the served build's intake stores for a batch that mixes new orders,
// repeats of one within the batch, repeats of one stored before, and the
// jobs of a cancellation and a refund, read back through Prisma: each row
// once, 64-bit ids to the digit, and every time the instant it was, with the
// server in a time zone far from UTC (a time written as local text into a
// column that keeps UTC would be hours off).

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer({ ...testAppEnv(), TZ: "Asia/Kolkata" });
}, 60_000);

beforeEach(async () => {
  await resetDatabase();
  await installShop();
});

afterAll(() => server?.stop());

/** Past 2^53: a JavaScript number would round these. */
const ORDER_A = 7_340_312_345_678_901_234n;
const ORDER_B = ORDER_A + 1n;
const ORDER_C = ORDER_A + 2n;
const REFUND = 9_123_456_789_012_345_678n;

// Minutes ago, not a date written down: a delivery triggered more than a day ago is refused (400).
const PLACED_AT = new Date(Math.floor(Date.now() / 1000) * 1000 - 3 * 60_000);
const TRIGGERED_AT = new Date(PLACED_AT.getTime() + 90_250).toISOString();

const referred = (id: bigint) => shopifyOrder({ id, createdAt: PLACED_AT, email: `buyer-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });

/** A delivery's answer, once what the app accepted is planned. */
async function deliver(topic: string, body: unknown, webhookId: string): Promise<Response> {
  const response = await fetch(signedWebhook({ topic, body, webhookId, triggeredAt: TRIGGERED_AT, url: `${server.origin}/webhooks/${topic}` }));
  await deliveriesPlanned();
  return response;
}

it("stores each order and job of a mixed batch once, with exact ids and times", async () => {
  const before = Date.now();
  expect((await deliver("orders/paid", referred(ORDER_A), "wh-a-1")).status).toBe(200);

  const answers = await Promise.all([
    deliver("orders/paid", referred(ORDER_A), "wh-a-2"),
    deliver("orders/paid", referred(ORDER_B), "wh-b-1"),
    deliver("orders/paid", referred(ORDER_B), "wh-b-2"),
    deliver("orders/paid", referred(ORDER_C), "wh-c-1"),
    deliver("orders/cancelled", { id: jsonId(ORDER_A), financial_status: "voided" }, "wh-cancel-1"),
    deliver("orders/cancelled", { id: jsonId(ORDER_A), financial_status: "voided" }, "wh-cancel-2"),
    deliver("refunds/create", shopifyRefund(ORDER_B, ["30.00"], REFUND), "wh-refund-1"),
  ]);
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
  const after = Date.now();

  const records = await prisma.orderRecord.findMany({ orderBy: { orderId: "asc" } });
  expect(records.map((r) => r.orderId)).toEqual([String(ORDER_A), String(ORDER_B), String(ORDER_C)]);
  for (const record of records) {
    expect(record).toMatchObject({ shop: TEST_SHOP, status: "queued", shortCode: "ALICE10", email: `buyer-${record.orderId}@example.com`, taxesIncluded: false });
    expect(record.placedAt?.toISOString()).toBe(PLACED_AT.toISOString());
    expect(record.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(record.createdAt.getTime()).toBeLessThanOrEqual(after + 1);
    expect(record.updatedAt.getTime()).toBe(record.createdAt.getTime());
  }

  const jobs = await prisma.job.findMany({ orderBy: { key: "asc" } });
  expect(jobs.map((j) => j.key)).toEqual([
    `${TEST_SHOP}:order.cancel:${ORDER_A}`,
    `${TEST_SHOP}:order.record:${ORDER_A}`,
    `${TEST_SHOP}:order.record:${ORDER_B}`,
    `${TEST_SHOP}:order.record:${ORDER_C}`,
    `${TEST_SHOP}:order.refund:${ORDER_B}:${REFUND}`,
  ]);
  const recordJob = (id: bigint) => jobs.find((j) => j.key === `${TEST_SHOP}:order.record:${id}`)!;
  // The first delivery of A made its rows; the repeat, a batch later, none.
  expect(recordJob(ORDER_A).webhookId).toBe("wh-a-1");
  expect(["wh-b-1", "wh-b-2"]).toContain(recordJob(ORDER_B).webhookId);
  for (const job of jobs) {
    expect(job.status).toBe("queued");
    expect(job.triggeredAt?.toISOString()).toBe(TRIGGERED_AT);
    expect(job.runAt.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(job.runAt.getTime()).toBeLessThanOrEqual(after + 1);
    expect(job.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(job.createdAt.getTime()).toBeLessThanOrEqual(after + 1);
  }
  // Orders of one lane run in the order Shopify triggered them.
  expect(recordJob(ORDER_A).laneAt?.toISOString()).toBe(TRIGGERED_AT);
  expect(JSON.parse(recordJob(ORDER_C).payload)).toMatchObject({ orderId: String(ORDER_C), event: { params: { email: `buyer-${ORDER_C}@example.com` } } });
  const refund = jobs.find((j) => j.kind === "order.refund")!;
  expect(JSON.parse(refund.payload)).toMatchObject({ orderId: String(ORDER_B), refundId: String(REFUND), amount: "30.00" });
});

it("stores the rest of a batch when one order carries a text PostgreSQL cannot hold (a NUL character)", async () => {
  // An order name is the shop's to choose; a text column on PostgreSQL cannot hold U+0000, SQLite's can.
  const odd = { ...referred(ORDER_A), name: "#10\u000001" };
  const answers = await Promise.all([
    deliver("orders/paid", odd, "wh-odd"),
    ...[ORDER_B, ORDER_C].map((id) => deliver("orders/paid", referred(id), `wh-${id}`)),
  ]);
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  const records = await prisma.orderRecord.findMany({ orderBy: { orderId: "asc" } });
  expect(records.map((r) => r.orderId)).toEqual([String(ORDER_A), String(ORDER_B), String(ORDER_C)]);
  expect(records[0]!.orderName).toMatch(/^#10.01$/);
  expect(await prisma.job.count()).toBe(3);
});

it("queues no job for a repeat of an order stored without one, even when the repeat would queue one", async () => {
  // The first delivery names no referrer: its record is stored, waiting for a web pixel signal, and no recording job.
  // The second names one; it is still a repeat (the record exists), so no job goes in: the job's row is gated on
  // its record's being new.
  const plain = shopifyOrder({ id: ORDER_A, createdAt: PLACED_AT, email: `buyer-${ORDER_A}@example.com` });
  expect((await deliver("orders/paid", plain, "wh-plain")).status).toBe(200);
  expect(await prisma.orderRecord.findMany({ select: { orderId: true, status: true } })).toEqual([{ orderId: String(ORDER_A), status: "awaiting_signal" }]);
  expect((await deliver("orders/paid", referred(ORDER_A), "wh-referred")).status).toBe(200);
  expect(await prisma.job.count({ where: { kind: "order.record" } })).toBe(0);
  expect(await prisma.orderRecord.count()).toBe(1);
});

it("stores an order whose created_at is before 1970 (year 0 here) as placed now, and the rest of its batch", async () => {
  const before = Date.now();
  const ancient = { ...referred(ORDER_A), created_at: "0000-06-01T00:00:00+00:00" };
  const answers = await Promise.all([deliver("orders/paid", ancient, "wh-ancient"), deliver("orders/paid", referred(ORDER_B), "wh-b")]);
  expect(answers.map((a) => a.status)).toEqual([200, 200]);
  const records = await prisma.orderRecord.findMany({ orderBy: { orderId: "asc" } });
  expect(records.map((r) => r.orderId)).toEqual([String(ORDER_A), String(ORDER_B)]);
  expect(records[0]!.placedAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
  expect(records[1]!.placedAt?.toISOString()).toBe(PLACED_AT.toISOString());
});
