// The shop's pixel sweep on its own: what it joins, what it keeps and what it deletes.
import type { PrismaClient } from "@prisma/client";
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { recordJobKey } from "../../../app/domains/referrals/job-kinds";
import { PIXEL_SIGNAL_TTL_MS, sweepPixelSignals } from "../../../app/domains/referrals/pixel-signals.server";
import { resetDatabase } from "../../support/database";
import { TEST_SHOP } from "../../support/shopify-requests";

beforeEach(resetDatabase);

const OTHER = "other-shop.myshopify.com";
const token = (n: number) => `t${String(n).padStart(31, "0")}`;
const MINUTE = 60_000;

describe("the pixel sweep", () => {
  it("deletes the signals and its own finished jobs past their use, the shop's only", async () => {
    const now = new Date();
    const old = new Date(now.getTime() - PIXEL_SIGNAL_TTL_MS - 60_000);
    for (const [n, shop, createdAt] of [[1, TEST_SHOP, old], [2, TEST_SHOP, now], [3, OTHER, old]] as const) {
      await prisma.pixelSignal.create({ data: { shop, checkoutToken: token(n), code: "ALICE10", createdAt } });
    }
    const job = (shop: string, kind: string, subject: string, status: string, runAt: Date) =>
      prisma.job.create({ data: { shop, kind, key: `${shop}:${kind}:${subject}`, payload: "{}", status, runAt } });
    await job(TEST_SHOP, "pixel.sweep", "slot:1", "done", old);
    await job(TEST_SHOP, "pixel.match", token(9), "done", old);
    await job(TEST_SHOP, "pixel.sweep", "slot:2", "queued", old);
    await job(TEST_SHOP, "pixel.sweep", "slot:3", "done", now);
    await job(TEST_SHOP, "order.record", "42", "done", old);
    await job(OTHER, "pixel.sweep", "slot:1", "done", old);

    expect(await sweepPixelSignals(prisma, TEST_SHOP, now)).toEqual({ reopened: 0, ended: 0, deleted: 1 });

    expect((await prisma.pixelSignal.findMany({ orderBy: { checkoutToken: "asc" } })).map((s) => s.checkoutToken)).toEqual([token(2), token(3)]);
    expect((await prisma.job.findMany({ orderBy: { key: "asc" } })).map((j) => j.key)).toEqual([
      `${OTHER}:pixel.sweep:slot:1`,
      `${TEST_SHOP}:order.record:42`,
      `${TEST_SHOP}:pixel.sweep:slot:2`,
      `${TEST_SHOP}:pixel.sweep:slot:3`,
    ]);
  });

  it("joins a signal with an order waiting for it however late its webhook came, ends the waits that are over, reading orders in batches and no made-up signal", async () => {
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const judgedWithPixel = JSON.stringify({ signals: [{ source: "pixel", code: "ALICE10", outcome: "Not a referral code at the service" }], winner: null, guard: [], decision: "" });
    const heldEvent = JSON.stringify({ campaignUids: ["1001"], codeSource: null, params: { email: "jon@example.com", transactionUid: "8" }, signals: { discountCodes: [] } });
    // GIVEN orders waiting for their signal (or settled), each with its checkout's signal: [order id, placed, signal after placing, status, explanation, held event]
    const orders: [string, Date, number, string, string | null, string | null][] = [
      ["1", ago(50 * MINUTE), 5_000, "awaiting_signal", null, null], // signal 50 min ago, order stored 40 min after it
      ["2", ago(5 * 60 * MINUTE), 10_000, "awaiting_signal", null, null], // signal 5 h ago
      ["3", ago(2 * 60 * MINUTE), 45 * MINUTE, "awaiting_signal", null, null], // signal 45 min after the order was placed: too late, and the wait is over
      ["4", ago(60 * MINUTE), 5_000, "not_referred", judgedWithPixel, null], // final: its job weighed the signal already
      ["5", ago(7 * 60 * MINUTE), 5_000, "not_referred", null, null], // final, and its signal past its lifetime
      ["6", ago(20 * MINUTE), 5_000, "recorded", null, null],
      ["7", ago(10 * MINUTE), 5_000, "awaiting_signal", null, null],
      ["8", ago(15 * MINUTE), 5_000, "not_referred", null, heldEvent], // as the release before awaiting_signal left a waiting order
    ];
    for (const [orderId, placedAt, after, status, explanation, held] of orders) {
      const checkoutToken = token(Number(orderId));
      await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId, status, placedAt, checkoutToken, explanation, heldEvent: held } });
      await prisma.pixelSignal.create({ data: { shop: TEST_SHOP, checkoutToken, orderId, code: "ALICE10", createdAt: new Date(placedAt.getTime() + after) } });
      if (!held) await prisma.job.create({ data: { shop: TEST_SHOP, kind: "order.record", key: recordJobKey(TEST_SHOP, orderId), payload: "{}", status: "done" } });
    }
    // AND orders waiting with no signal at all (their wait over, but one's), and another shop's
    for (let n = 100; n < 105; n++) await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: String(n), status: "awaiting_signal", placedAt: ago(n * MINUTE), checkoutToken: token(n) } });
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "200", status: "awaiting_signal", placedAt: ago(5 * MINUTE), checkoutToken: token(200) } });
    await prisma.orderRecord.create({ data: { shop: OTHER, orderId: "1", status: "awaiting_signal", placedAt: ago(50 * MINUTE), checkoutToken: token(1) } });
    // AND 10,000 made-up signals that join nothing
    await prisma.pixelSignal.createMany({
      data: Array.from({ length: 10_000 }, (_, n) => ({ shop: TEST_SHOP, checkoutToken: `f${String(n).padStart(31, "0")}`, code: "ALICE10", createdAt: ago(n * 1_000) })),
    });

    // WHEN the sweep runs, three orders a query
    const reads = countingSignalReads(prisma);
    const swept = await sweepPixelSignals(reads.db, TEST_SHOP, now, { batch: 3 });

    // THEN the orders whose signal came soon after their placing are queued, however long ago; the waits that are over end, not referred
    expect(swept).toEqual({ reopened: 4, ended: 6, deleted: 1 });
    const statuses = await prisma.orderRecord.findMany({ where: { shop: TEST_SHOP }, orderBy: { orderId: "asc" } });
    expect(Object.fromEntries(statuses.map((r) => [r.orderId, r.status]))).toEqual({
      "1": "queued",
      "2": "queued",
      "3": "not_referred",
      "4": "not_referred",
      "5": "not_referred",
      "6": "recorded",
      "7": "queued",
      "8": "queued",
      "100": "not_referred",
      "101": "not_referred",
      "102": "not_referred",
      "103": "not_referred",
      "104": "not_referred",
      "200": "awaiting_signal",
    });
    expect(statuses.find((r) => r.orderId === "100")).toMatchObject({ heldEvent: null, statusReason: "Not referred: no web pixel signal came within 30 minutes of the order" });
    // The held event of the earlier release's row became its job
    expect(await prisma.job.findUnique({ where: { key: recordJobKey(TEST_SHOP, "8") } })).toMatchObject({ status: "queued" });
    expect(await prisma.orderRecord.findFirst({ where: { shop: OTHER } })).toMatchObject({ status: "awaiting_signal" });
    // AND it read the signals of the shop's waiting orders only, never the made-up ones
    expect(reads.rows).toBeLessThanOrEqual(orders.length);
    expect(reads.queries).toBeLessThanOrEqual(4);
  });

  it("ends the wait of the orders it was booked for, however late it runs", async () => {
    const now = new Date();
    const placedAt = new Date(now.getTime() - 8 * 60 * MINUTE);
    await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: "1", status: "awaiting_signal", placedAt, checkoutToken: token(1) } });
    // Booked for the end of the order's wait, run hours later (no worker ran meanwhile)
    expect(await sweepPixelSignals(prisma, TEST_SHOP, now, { bookedAt: new Date(placedAt.getTime() + 31 * MINUTE) })).toMatchObject({ ended: 1 });
    expect(await prisma.orderRecord.findFirst({ where: { shop: TEST_SHOP } })).toMatchObject({ status: "not_referred", heldEvent: null });
  });
});

/** The database, counting the pixel signals the sweep reads. */
function countingSignalReads(db: PrismaClient) {
  const counts = { rows: 0, queries: 0 };
  const pixelSignal = {
    findMany: async (args: Parameters<PrismaClient["pixelSignal"]["findMany"]>[0]) => {
      const rows = await db.pixelSignal.findMany(args);
      counts.queries += 1;
      counts.rows += rows.length;
      return rows;
    },
    deleteMany: (args: Parameters<PrismaClient["pixelSignal"]["deleteMany"]>[0]) => db.pixelSignal.deleteMany(args),
  };
  const counted = new Proxy(db, {
    get: (target, property) => {
      if (property === "pixelSignal") return pixelSignal;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return Object.assign(counts, { db: counted });
}
