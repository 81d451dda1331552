import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import type { OrderSource } from "../../../app/domains/referrals/order-intake";
import { storeOrderWebhook } from "../../../app/wiring/order-intake.server";
import { RECONCILE_JOB } from "../../../app/domains/order-sync/job-kinds";
import { backfillQuery, runBackfill, startBackfill } from "../../../app/domains/order-sync/backfill.server";
import { countFound } from "../../../app/domains/order-sync/found-counts.server";
import { readOrdersPage, searchTime, storeOrdersPage } from "../../../app/domains/order-sync/order-pages.server";
import { LINE_ITEMS_PER_ORDER, ORDERS_PER_PAGE, REFUND_LINES_PER_READ, REFUNDS_PER_ORDER } from "../../../app/domains/order-sync/order-query";
import { reconcileShop } from "../../../app/domains/order-sync/reconcile.server";
import { realSleep } from "../../../app/platform/http/sleep";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { parseShopifyJson } from "../../../app/platform/text/lossless-json";
import { shopifyOrder, shopifyRefund } from "../../support/orders";
import { connectShop, sandboxCommissions, testPipeline, useTestSandbox, type TestPipeline } from "../../support/pipeline";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { TEST_SHOP } from "../../support/shopify-requests";

// Reconciliation against the Admin API stand-in and the real sandbox
// service, run by the job pipeline: what no webhook brought is found and
// recorded once; what a webhook brought is not counted again.

const sandbox = useTestSandbox();
let shopify: ShopifyAdminStandIn;
let pipeline: TestPipeline;

beforeEach(async () => {
  await connectShop(sandbox);
  await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { guardDailyLimit: 1_000_000 } });
  shopify = new ShopifyAdminStandIn();
  shopify.setBucket(100_000, 50_000);
  pipeline = testPipeline();
  pipeline.ctx.adminForShop = shopify.access();
});

const referred = (id: number) => ({ ...shopifyOrder({ id, email: `buyer-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), browser_ip: `198.51.100.${id % 250}` });

const webhook = (topic: string, body: unknown) =>
  storeOrderWebhook({ shop: TEST_SHOP, topic, payload: parseShopifyJson(JSON.stringify(body)), webhookId: `w-${topic}-${(body as { id: number }).id}`, triggeredAt: new Date() });

const deps = () => ({ db: prisma, admin: { admin: shopify, sleep: realSleep }, intake: (hooks: Parameters<typeof storeOrderWebhook>[0][]) => Promise.all(hooks.map(storeOrderWebhook)), logger: createLogger({ level: "silent" }), now: () => new Date() });
const settings = { intervalMs: 300_000, overlapMs: 600_000 };

async function runPass() {
  await prisma.job.create({ data: { shop: TEST_SHOP, kind: RECONCILE_JOB.name, key: `test-pass-${Date.now()}-${Math.random()}`, payload: "{}", lane: `order-sync:${TEST_SHOP}` } });
  await pipeline.drain();
}

describe("reconciliation", () => {
  it("records the orders whose webhooks never came, once each, and counts them as found", async () => {
    const orders = Array.from({ length: 60 }, (_, i) => referred(6_200_000_000_000 + i));
    for (const order of orders) shopify.orders.add(order, { at: new Date(Date.now() - 60_000) });
    // GIVEN webhooks for two orders in three
    for (const order of orders.filter((_, i) => i % 3 !== 0)) await webhook("ORDERS_PAID", order);
    await pipeline.drain();

    // WHEN one pass runs
    await runPass();

    // THEN every order is at the service exactly once
    const ids = new Set(orders.map((o) => String(o.id)));
    const commissions = (await sandboxCommissions(sandbox)).filter((c) => ids.has(String(c.transaction_id)));
    const perOrder = new Map<string, number>();
    for (const c of commissions) perOrder.set(String(c.transaction_id), (perOrder.get(String(c.transaction_id)) ?? 0) + 1);
    expect(perOrder.size).toBe(60);
    expect([...perOrder.values()].every((n) => n === 1)).toBe(true);
    const state = await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(state.missedOrders).toBe(20);
    expect(state.reconciledAt).not.toBeNull();
    expect(state.watermark?.getTime()).toBe(Math.max(...[...shopify.orders.byId.values()].map((o) => o.updatedAt.getTime())));
    // 60 orders in pages of ORDERS_PER_PAGE, no document refused (none above Shopify's 1,000), and the next pass queued
    expect(shopify.callsOf("OrdersPage", "ok")).toHaveLength(Math.ceil(60 / ORDERS_PER_PAGE));
    expect(shopify.refused).toEqual([]);
    expect(await prisma.job.count({ where: { kind: RECONCILE_JOB.name, status: "queued" } })).toBe(1);

    // AND a second pass finds nothing new
    await runPass();
    expect((await sandboxCommissions(sandbox)).filter((c) => ids.has(String(c.transaction_id)))).toHaveLength(60);
    expect((await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).missedOrders).toBe(20);
  }, 60_000);

  it("carries a cancellation and a refund whose webhooks never came to the service once, and a late webhook changes nothing", async () => {
    const cancelled = referred(6_300_000_000_001);
    const refunded = referred(6_300_000_000_002);
    for (const order of [cancelled, refunded]) {
      shopify.orders.add(order, { at: new Date(Date.now() - 60_000) });
      await webhook("ORDERS_PAID", order);
    }
    await pipeline.drain();
    shopify.orders.cancel(String(cancelled.id));
    const refund = shopifyRefund(refunded.id, ["40.00"], 6_300_000_000_900);
    shopify.orders.refund(String(refunded.id), refund);

    await runPass();
    const [denied] = await sandboxCommissions(sandbox, String(cancelled.id));
    expect(denied?.state).toBe("denied");
    const [reduced] = await sandboxCommissions(sandbox, String(refunded.id));
    expect(reduced?.revenue_amount).toBe("50.00");
    expect((await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).missedChanges).toBe(2);

    // The webhooks arrive after all: duplicates.
    expect((await webhook("ORDERS_CANCELLED", cancelled)).outcome).toBe("duplicate");
    expect((await webhook("REFUNDS_CREATE", refund)).outcome).toBe("duplicate");
    await pipeline.drain();
    await runPass();
    expect((await sandboxCommissions(sandbox, String(refunded.id)))[0]?.revenue_amount).toBe("50.00");
    expect(shopify.callsOf("OrderRefund", "ok")).toHaveLength(1);
  }, 60_000);

  it("reads an order larger than a page whole: line items past the page, refunds past the page's list, a refund's lines past its first read", async () => {
    // An order of LINE_ITEMS_PER_ORDER + 3 lines, each with 1.00 of tax within its price (revenue leaves it out), with
    // REFUNDS_PER_ORDER + 2 refunds, the last of REFUND_LINES_PER_READ + 10 lines: a part left unread changes the revenue.
    const big = (id: number) => {
      const order = { ...referred(id), taxes_included: true };
      const [item] = order.line_items;
      const tax = { ...item!.tax_lines[0]!, price: "1.00", price_set: { shop_money: { amount: "1.00", currency_code: "USD" }, presentment_money: { amount: "1.00", currency_code: "USD" } } };
      order.line_items = Array.from({ length: LINE_ITEMS_PER_ORDER + 3 }, (_, i) => ({ ...item!, id: item!.id + i, price: "12.50", tax_lines: [tax] }));
      return order;
    };
    const refunds = (orderId: number, first: number) => [
      ...Array.from({ length: REFUNDS_PER_ORDER + 1 }, (_, i) => shopifyRefund(orderId, ["1.00"], first + i)),
      shopifyRefund(orderId, Array.from({ length: REFUND_LINES_PER_READ + 10 }, () => "0.50"), first + 100),
    ];
    // GIVEN one such order whose webhooks all came, and one alike whose webhooks never came
    const seen = big(6_550_000_000_001);
    const missed = big(6_550_000_000_002);
    for (const order of [seen, missed]) shopify.orders.add(order, { at: new Date(Date.now() - 60_000) });
    await webhook("ORDERS_PAID", seen);
    await pipeline.drain();
    for (const refund of refunds(seen.id, 6_550_000_001_000)) {
      shopify.orders.refund(String(seen.id), refund);
      await webhook("REFUNDS_CREATE", refund);
      await pipeline.drain();
    }
    for (const refund of refunds(missed.id, 6_550_000_002_000)) shopify.orders.refund(String(missed.id), refund);

    // WHEN one pass runs
    await runPass();

    // THEN the order found by the pass weighs at the service what the one its webhooks brought does
    const [bySeen] = await sandboxCommissions(sandbox, String(seen.id));
    const [byMissed] = await sandboxCommissions(sandbox, String(missed.id));
    expect(bySeen?.revenue_amount).toMatch(/^[0-9]+\.[0-9]{2}$/);
    expect(byMissed?.revenue_amount).toBe(bySeen!.revenue_amount);
    // AND each part came from the document that reads past a page, none refused
    for (const operation of ["OrderLineItems", "OrderRefunds", "RefundLineItems"]) expect(shopify.callsOf(operation, "ok").length, operation).toBeGreaterThan(0);
    expect(shopify.refused).toEqual([]);
  }, 60_000);

  it("moves the watermark only past pages it stored: a pass cut off by Shopify resumes from the last stored page", async () => {
    for (let i = 0; i < 60; i++) shopify.orders.add(referred(6_400_000_000_000 + i), { at: new Date(Date.now() - 600_000 + i * 1_000) });
    // The third page fails for good (THROTTLED past every retry).
    let pages = 0;
    const admin = { graphql: async (query: string, options?: { variables?: Record<string, unknown> }) => {
      if (query.includes("OrdersPage") && ++pages === 3) return Response.json({ errors: [{ message: "Internal error", extensions: { code: "INTERNAL_SERVER_ERROR" } }] });
      return shopify.graphql(query, options);
    } };
    await expect(reconcileShop({ ...deps(), admin: { admin, sleep: realSleep } }, TEST_SHOP, settings)).rejects.toThrow(/Internal error/);
    const state = await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    const sorted = [...shopify.orders.byId.values()].sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime());
    const stored = 2 * ORDERS_PER_PAGE;
    expect(state.watermark?.getTime()).toBe(sorted[stored - 1]!.updatedAt.getTime());
    expect(state.reconciledAt).toBeNull();
    expect(await prisma.orderRecord.count()).toBe(stored);

    const pass = await reconcileShop(deps(), TEST_SHOP, settings);
    expect(await prisma.orderRecord.count()).toBe(60);
    expect(pass.newOrders).toBe(60 - stored);
  }, 60_000);

  it("keeps to Shopify's cost limit: waits for the bucket, and retries a THROTTLED answer", async () => {
    for (let i = 0; i < 30; i++) shopify.orders.add(referred(6_500_000_000_000 + i), { at: new Date(Date.now() - 60_000) });
    shopify.setBucket(1_000, 2_000);
    shopify.throttleNext(1);
    const pass = await reconcileShop(deps(), TEST_SHOP, settings);
    expect(pass.newOrders).toBe(30);
    expect(shopify.callsOf("OrdersPage", "throttled").length).toBeGreaterThanOrEqual(1);
    expect(shopify.callsOf("OrdersPage", "ok")).toHaveLength(Math.ceil(30 / ORDERS_PER_PAGE));
  }, 60_000);
});

describe("the Overview's counts after a crash", () => {
  // A page stored just before a crash is read again after it; the intake
  // then answers "duplicate" for each of its orders, which no webhook brought.
  const storedBeforeTheCrash = async (query: string, sortKey: "UPDATED_AT" | "CREATED_AT", arrivedBy: OrderSource) => {
    const page = await readOrdersPage(deps().admin, query, sortKey, null);
    await storeOrdersPage(deps(), TEST_SHOP, page.orders, arrivedBy);
    return page.orders.length;
  };

  it("a reconciliation pass counts the orders of a page an interrupted pass stored", async () => {
    for (let i = 0; i < 30; i++) shopify.orders.add(referred(6_450_000_000_000 + i), { at: new Date(Date.now() - 60_000) });
    // GIVEN a pass that stored its first page, then stopped before it counted or moved the watermark
    expect(await storedBeforeTheCrash(`updated_at:>=${searchTime(new Date(Date.now() - 3_600_000))}`, "UPDATED_AT", "reconciliation")).toBe(ORDERS_PER_PAGE);

    // WHEN the next pass runs
    const pass = await reconcileShop(deps(), TEST_SHOP, settings);

    // THEN the intake saw the rest as new, and all 30 count as found
    expect(pass.newOrders).toBe(30 - ORDERS_PER_PAGE);
    expect((await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).missedOrders).toBe(30);
    // AND a second pass counts none again
    await reconcileShop(deps(), TEST_SHOP, settings);
    expect((await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).missedOrders).toBe(30);
  }, 60_000);

  it("two runners counting at once count each order once", async () => {
    for (let i = 0; i < ORDERS_PER_PAGE; i++) shopify.orders.add(referred(6_470_000_000_000 + i), { at: new Date(Date.now() - 60_000) });
    await prisma.orderSync.create({ data: { shop: TEST_SHOP } });
    expect(await storedBeforeTheCrash(`updated_at:>=${searchTime(new Date(Date.now() - 3_600_000))}`, "UPDATED_AT", "reconciliation")).toBe(ORDERS_PER_PAGE);
    const counted = await Promise.all([countFound(prisma, TEST_SHOP), countFound(prisma, TEST_SHOP), countFound(prisma, TEST_SHOP)]);
    expect(counted.map((c) => c.orders.reconciliation).sort((a, b) => a - b)).toEqual([0, 0, ORDERS_PER_PAGE]);
    expect((await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).missedOrders).toBe(ORDERS_PER_PAGE);
  }, 60_000);

  it("a resumed backfill counts the orders of the page stored before it stopped", async () => {
    for (let i = 0; i < 30; i++) shopify.orders.add(referred(6_460_000_000_000 + i), { at: new Date(Date.now() - 3 * 86_400_000) });
    const startedAt = new Date();
    expect(await startBackfill(prisma, TEST_SHOP, 30, startedAt)).toEqual({ ok: true });
    const state = await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    // GIVEN the backfill's first page stored, the process gone before its cursor moved
    expect(await storedBeforeTheCrash(backfillQuery(state.backfillSince!, state.backfillUntil!), "CREATED_AT", "backfill")).toBe(ORDERS_PER_PAGE);

    // WHEN it resumes
    await runBackfill(deps(), TEST_SHOP, startedAt);

    // THEN it added all 30, and reconciliation none
    expect(await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({
      backfillStatus: "done",
      backfillTotal: 30,
      backfillSeen: 30,
      backfillAdded: 30,
      missedOrders: 0,
    });
    expect(await prisma.orderRecord.count({ where: { arrivedBy: "backfill" } })).toBe(30);
  }, 60_000);
});
