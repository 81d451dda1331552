import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { PRIVACY_PURGE_JOB, PURGE_JOB_SHOP } from "../../../app/domains/privacy/job-kinds";
import { PURGE_INTERVAL_MS, purgeExpired, schedulePurge } from "../../../app/domains/privacy/purge.server";
import { COUPON_BUYER_MS, DATA_REQUEST_REPORT_MS, FINISHED_JOB_MS, PIXEL_SIGNAL_MS, REFUSED_DELIVERY_MS, SET_ASIDE_DELIVERY_MS, UNREFERRED_ORDER_PERSONAL_DATA_MS } from "../../../app/domains/privacy/retention.server";
import { resetDatabase } from "../../support/database";
import { testPipeline } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";

// The retention purge leaves what the documented periods say, on either side
// of each period, in every shop; it runs as the app's hourly job, in batches,
// and two purges at once change each row once.

const OTHER_SHOP = "other-shop.myshopify.com";
const HOUR = 3_600_000;

beforeEach(resetDatabase);

let next = 7_000_000_000_000;
const ago = (now: number, ms: number) => new Date(now - ms);

/** A shop's rows on both sides of every period, as of `now`; returns what the periods say the purge must change. */
async function seed(shop: string, now: number) {
  const personal = { email: "Buyer@Example.com", emailKey: "buyer@example.com", customerId: "7210000000017", browserIp: "203.0.113.9", heldEvent: '{"buyer":{"phone":"+15556251199"}}' };
  const order = (status: string, placedAgo: number | null, createdAgo = placedAgo ?? 0) =>
    prisma.orderRecord.create({ data: { shop, orderId: String(next++), status, ...personal, placedAt: placedAgo === null ? null : ago(now, placedAgo), createdAt: ago(now, createdAgo) } });
  const past = UNREFERRED_ORDER_PERSONAL_DATA_MS + HOUR;
  const within = UNREFERRED_ORDER_PERSONAL_DATA_MS - HOUR;
  // Cleared: not referred and past the period (one stored before placedAt was kept).
  await order("not_referred", past);
  await order("not_referred", null, past);
  // Kept: within the period, or referred, blocked, failed, skipped (it may be sent again) or waiting.
  await order("not_referred", within);
  for (const status of ["recorded", "blocked", "needs_review", "reversed", "failed", "skipped", "queued"]) await order(status, past);

  for (const createdAgo of [PIXEL_SIGNAL_MS + HOUR, PIXEL_SIGNAL_MS + 2 * HOUR, PIXEL_SIGNAL_MS - HOUR]) {
    await prisma.pixelSignal.create({ data: { shop, checkoutToken: `token-${next++}`, code: "ALICE10", createdAt: ago(now, createdAgo) } });
  }

  // Buyers of a coupon without a link (leaked codes): one no window reaches any more (deleted), one a 90-day window, read by an order handled late, may still reach.
  for (const [buyerKey, usedAgo] of [["old", COUPON_BUYER_MS + HOUR], ["recent", COUPON_BUYER_MS - HOUR]] as const) {
    await prisma.couponBuyer.create({ data: { shop, code: "ALICE-15", buyerKey, lastUsedAt: ago(now, usedAgo), orderId: String(next++) } });
  }

  const job = (status: string, runAgo: number, kind = "order.record") =>
    prisma.job.create({ data: { shop, kind, key: `${shop}:${kind}:${next++}`, payload: '{"email":"buyer@example.com"}', status, runAt: ago(now, runAgo) } });
  await job("done", FINISHED_JOB_MS + HOUR);
  await job("done", FINISHED_JOB_MS + 30 * 24 * HOUR);
  await job("done", FINISHED_JOB_MS - HOUR);
  await job("failed", FINISHED_JOB_MS + 30 * 24 * HOUR);
  await job("paused", FINISHED_JOB_MS + HOUR);
  // A cancellation's finished job stays with its order: reconciliation knows the change by it.
  await job("done", FINISHED_JOB_MS + 30 * 24 * HOUR, "order.cancel");

  const request = (status: string, completedAgo: number | null) =>
    prisma.dataRequest.create({
      data: { shop, requestId: String(next++), email: "buyer@example.com", customerId: "7210000000017", ordersRequested: '["5640000000101"]', status, report: status === "ready" ? '{"orders":[]}' : null, receivedAt: ago(now, (completedAgo ?? 0) + HOUR), completedAt: completedAgo === null ? null : ago(now, completedAgo) },
    });
  await request("ready", DATA_REQUEST_REPORT_MS + HOUR);
  await request("ready", DATA_REQUEST_REPORT_MS - HOUR);
  await request("open", null);

  // Order webhooks set aside on SQLite: one past its period (deleted), one within it.
  const kept = (failure: string | null, receivedAgo: number) =>
    prisma.pendingDelivery.create({ data: { shop, topic: "ORDERS_PAID", webhookId: `wh-${next++}`, body: Buffer.from('{"email":"buyer@example.com"}'), failure, receivedAt: ago(now, receivedAgo) } });
  await kept("TypeError: cannot be planned", SET_ASIDE_DELIVERY_MS + HOUR);
  await kept("TypeError: cannot be planned", SET_ASIDE_DELIVERY_MS - HOUR);

  // Queued order webhooks refused for good (shown on the Overview): one past its period (deleted), one within it.
  for (const receivedAgo of [REFUSED_DELIVERY_MS + HOUR, REFUSED_DELIVERY_MS - HOUR]) {
    await prisma.refusedDelivery.create({ data: { shop, topic: "orders/paid", webhookId: `wh-${next++}`, reason: "the body is not JSON", receivedAt: ago(now, receivedAgo) } });
  }

  return { orderRecordsCleared: 2, pixelSignalsDeleted: 2, couponBuyersDeleted: 1, finishedJobsDeleted: 2, reportsDeleted: 1, setAsideDeliveriesDeleted: 1, refusedDeliveriesDeleted: 1 };
}

async function leftOver(shop: string) {
  const records = await prisma.orderRecord.findMany({ where: { shop }, orderBy: { orderId: "asc" } });
  return {
    ordersWithEmail: records.filter((r) => r.email !== null).length,
    ordersWithIpOrHeldEvent: records.filter((r) => r.browserIp || r.heldEvent).length,
    orders: records.length,
    pixelSignals: await prisma.pixelSignal.count({ where: { shop } }),
    couponBuyers: (await prisma.couponBuyer.findMany({ where: { shop }, select: { buyerKey: true } })).map((row) => row.buyerKey),
    jobs: await prisma.job.count({ where: { shop } }),
    reports: await prisma.dataRequest.count({ where: { shop, report: { not: null } } }),
    requesters: await prisma.dataRequest.count({ where: { shop, email: { not: null } } }),
    requests: await prisma.dataRequest.count({ where: { shop } }),
    keptDeliveries: await prisma.pendingDelivery.count({ where: { shop } }),
    refusedDeliveries: await prisma.refusedDelivery.count({ where: { shop } }),
  };
}

/** What each shop holds after a purge, by the periods: 8 of 10 orders keep their IP and held event (all 10 stay, with their email), 1 of 3 signals, the recent coupon buyer, 4 of 6 jobs, 1 of 3 reports, 1 of 2 webhooks set aside, 1 of 2 refused. */
const AFTER = { ordersWithEmail: 10, ordersWithIpOrHeldEvent: 8, orders: 10, pixelSignals: 1, couponBuyers: ["recent"], jobs: 4, reports: 1, requesters: 2, requests: 3, keptDeliveries: 1, refusedDeliveries: 1 };

describe("the retention purge", () => {
  it("runs as the app's hourly job and leaves, in every shop, what the documented periods keep", async () => {
    const now = Date.now();
    const expected = await seed(TEST_SHOP, now);
    await seed(OTHER_SHOP, now);
    // The purge that the previous hour's run (or the process's start) queued for this hour.
    await schedulePurge(prisma, new Date(now - PURGE_INTERVAL_MS));

    await testPipeline().drain();

    expect(await leftOver(TEST_SHOP)).toEqual(AFTER);
    expect(await leftOver(OTHER_SHOP)).toEqual(AFTER);
    // The cleared orders keep their order id, decision, customer id and email (the guard looks back by email).
    const cleared = await prisma.orderRecord.findMany({ where: { shop: TEST_SHOP, browserIp: null } });
    expect(cleared.map((r) => [r.status, r.customerId, r.heldEvent, r.emailKey])).toEqual([
      ["not_referred", "7210000000017", null, "buyer@example.com"],
      ["not_referred", "7210000000017", null, "buyer@example.com"],
    ]);
    expect(cleared).toHaveLength(expected.orderRecordsCleared);
    const expired = await prisma.dataRequest.findFirstOrThrow({ where: { shop: TEST_SHOP, status: "expired" } });
    expect(expired).toMatchObject({ report: null, email: null, customerId: null, ordersRequested: "[]" });
    // The run is done, and the next hour's is queued.
    const purges = await prisma.job.findMany({ where: { shop: PURGE_JOB_SHOP, kind: PRIVACY_PURGE_JOB.name }, orderBy: { runAt: "asc" } });
    expect(purges.map((j) => j.status)).toEqual(["done", "queued"]);
    expect(purges[1]!.runAt.getTime() % PURGE_INTERVAL_MS).toBe(0);
    expect(purges[1]!.runAt.getTime()).toBeGreaterThan(now);
  });

  it("counts what it changed, batch by batch, and two purges at once change each row once", async () => {
    const now = Date.now();
    const one = await seed(TEST_SHOP, now);
    const other = await seed(OTHER_SHOP, now);

    // A delivery kept as long (a process killed, then a long stop), not set aside: it waits to be planned, whatever its age.
    await prisma.pendingDelivery.create({ data: { shop: TEST_SHOP, topic: "ORDERS_PAID", body: Buffer.from("{}"), receivedAt: new Date(now - SET_ASIDE_DELIVERY_MS - HOUR) } });

    const runs = await Promise.all([purgeExpired(prisma, new Date(now), { batch: 2 }), purgeExpired(prisma, new Date(now), { batch: 3 })]);

    const total = (key: keyof typeof one) => runs[0]![key] + runs[1]![key];
    expect({
      orderRecordsCleared: total("orderRecordsCleared"),
      pixelSignalsDeleted: total("pixelSignalsDeleted"),
      couponBuyersDeleted: total("couponBuyersDeleted"),
      finishedJobsDeleted: total("finishedJobsDeleted"),
      reportsDeleted: total("reportsDeleted"),
      setAsideDeliveriesDeleted: total("setAsideDeliveriesDeleted"),
      refusedDeliveriesDeleted: total("refusedDeliveriesDeleted"),
    }).toEqual({
      orderRecordsCleared: one.orderRecordsCleared + other.orderRecordsCleared,
      pixelSignalsDeleted: one.pixelSignalsDeleted + other.pixelSignalsDeleted,
      couponBuyersDeleted: one.couponBuyersDeleted + other.couponBuyersDeleted,
      finishedJobsDeleted: one.finishedJobsDeleted + other.finishedJobsDeleted,
      reportsDeleted: one.reportsDeleted + other.reportsDeleted,
      setAsideDeliveriesDeleted: one.setAsideDeliveriesDeleted + other.setAsideDeliveriesDeleted,
      refusedDeliveriesDeleted: one.refusedDeliveriesDeleted + other.refusedDeliveriesDeleted,
    });
    expect(await leftOver(TEST_SHOP)).toEqual({ ...AFTER, keptDeliveries: AFTER.keptDeliveries + 1 });
    await prisma.pendingDelivery.deleteMany({ where: { failure: null } });
    // Nothing is left for a purge at the same time.
    expect(await purgeExpired(prisma, new Date(now))).toEqual({ orderRecordsCleared: 0, pixelSignalsDeleted: 0, couponBuyersDeleted: 0, finishedJobsDeleted: 0, reportsDeleted: 0, setAsideDeliveriesDeleted: 0, refusedDeliveriesDeleted: 0 });
  });

  it("keeps a sent Flow trigger's job past the period, so the event is never sent again, but empties its payload", async () => {
    const now = Date.now();
    const trigger = (key: string, runAgo: number, status = "done") =>
      prisma.job.create({ data: { shop: TEST_SHOP, kind: "flow.trigger", key: `${TEST_SHOP}:flow.trigger:${key}`, payload: '{"handle":"ambassador-enrolled","payload":{"Ambassador email":"ann@example.com"}}', status, runAt: ago(now, runAgo) } });
    const old = await trigger("old", FINISHED_JOB_MS + HOUR);
    const recent = await trigger("recent", FINISHED_JOB_MS - HOUR);
    const waiting = await trigger("waiting", FINISHED_JOB_MS + HOUR, "queued");
    await purgeExpired(prisma, new Date(now));
    const after = new Map((await prisma.job.findMany({ where: { kind: "flow.trigger" } })).map((job) => [job.id, job.payload]));
    expect(after).toEqual(new Map([[old.id, "{}"], [recent.id, recent.payload], [waiting.id, waiting.payload]]));
  });

  it("leaves a large backlog to the next runs rather than holding one run long", async () => {
    const now = Date.now();
    await prisma.pixelSignal.createMany({ data: Array.from({ length: 25 }, (_, i) => ({ shop: TEST_SHOP, checkoutToken: `old-${i}`, code: "ALICE10", createdAt: ago(now, PIXEL_SIGNAL_MS + HOUR) })) });
    const first = await purgeExpired(prisma, new Date(now), { batch: 10, maxBatches: 2 });
    const second = await purgeExpired(prisma, new Date(now), { batch: 10, maxBatches: 2 });
    expect([first.pixelSignalsDeleted, second.pixelSignalsDeleted, await prisma.pixelSignal.count()]).toEqual([20, 5, 0]);
  });
});
