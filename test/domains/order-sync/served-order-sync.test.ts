import "../../entry/admin/browser-env";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startBackfill } from "../../../app/domains/order-sync/backfill.server";
import { RECONCILE_JOB } from "../../../app/domains/order-sync/job-kinds";
import { ORDERS_PER_PAGE } from "../../../app/domains/order-sync/order-query";
import { sandboxAppEnv, startAppServer, type AppServer } from "../../entry/admin/app-server";
import { shopifyOrder } from "../../support/orders";
import { connectShop, useTestSandbox } from "../../support/pipeline";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { deliveriesPlanned } from "../../support/kept-deliveries";

// The production build with its worker in the process, the sandbox service
// over HTTP and the Admin API stand-in over HTTP (SHOPIFY_ADMIN_API_ORIGIN):
// reconciliation finds what webhooks missed, and a backfill survives a
// SIGKILL of the app. Counted at the service's ledger.

const sandbox = useTestSandbox();
let shopify: ShopifyAdminStandIn;
let standIn: { origin: string; close(): Promise<void> };
let servers: AppServer[] = [];

beforeAll(async () => {
  shopify = new ShopifyAdminStandIn();
  standIn = await shopify.serve();
});
afterAll(() => standIn?.close());

beforeEach(async () => {
  shopify.orders.byId.clear();
  shopify.calls = [];
  // A large bucket (a Plus store's), so that the test is about counting, not waiting; pacing has its own test.
  shopify.setBucket(100_000, 50_000);
  await connectShop(sandbox);
  await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { guardDailyLimit: 1_000_000 } });
});
afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

/**
 * `shortLease`: a killed app's jobs are taken again within 2 s instead of 15.
 * Only where a test kills the app: a running job renews its lease every
 * third of it, and on a busy machine a renewal 1.3 s late lost a 2 s lease,
 * so a reconciliation pass ran twice (pages asked again, orders still once).
 */
async function startApp({ shortLease = false } = {}): Promise<AppServer> {
  const server = await startAppServer({
    ...sandboxAppEnv(),
    WORKER_IN_PROCESS: "true",
    WORKER_CONCURRENCY: "16",
    ...(shortLease ? { JOB_LEASE_MS: "2000" } : {}),
    JOB_RETRY_BASE_MS: "200",
    SHOPIFY_ADMIN_API_ORIGIN: standIn.origin,
  });
  servers.push(server);
  return server;
}

const until = async (what: string, check: () => Promise<boolean>, ms = 60_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${servers.map((s) => s.output()).join("\n")}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const referred = (id: number) => ({ ...shopifyOrder({ id, email: `buyer-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), browser_ip: `198.51.100.${id % 250}` });

/** Commissions at the service per order id, for these orders. */
function perOrder(ids: string[]): Map<string, number> {
  const wanted = new Set(ids);
  const counts = new Map<string, number>();
  for (const c of sandbox.ledger().commissions) {
    const id = String(c.transaction_id);
    if (wanted.has(id)) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

async function sendAll<T>(items: T[], send: (item: T) => Promise<void>, senders = 16) {
  let next = 0;
  await Promise.all(Array.from({ length: senders }, async () => {
    while (next < items.length) await send(items[next++]!);
  }));
}

describe("reconciliation in production", () => {
  it("1,000 orders, 30% of their webhooks never delivered: after one pass every order is recorded exactly once at the service", async () => {
    const app = await startApp();
    const orders = Array.from({ length: 1_000 }, (_, i) => referred(6_600_000_000_000 + i));
    const placed = Date.now() - 120_000;
    orders.forEach((order, i) => shopify.orders.add(order, { at: new Date(placed + i * 50) }));
    const lost = new Set(orders.filter((_, i) => i % 10 < 3).map((o) => String(o.id)));

    // GIVEN the webhooks of 70% of them, delivered
    await sendAll(orders.filter((o) => !lost.has(String(o.id))), async (order) => {
      const response = await fetch(signedWebhook({ topic: "orders/paid", url: `${app.origin}/webhooks/orders/paid`, body: order }));
      expect(response.status).toBe(200);
    });
    expect(lost.size).toBe(300);
    // Delivered means stored: on SQLite the webhooks' intake plans them a moment after answering (decision 022).
    await deliveriesPlanned();

    // WHEN one reconciliation pass is due
    await prisma.job.create({ data: { shop: TEST_SHOP, kind: RECONCILE_JOB.name, key: `${TEST_SHOP}:${RECONCILE_JOB.name}:test`, payload: "{}", lane: `order-sync:${TEST_SHOP}` } });
    await until("the pass and every order's job done", async () => {
      const sync = await prisma.orderSync.findUnique({ where: { shop: TEST_SHOP } });
      return sync?.reconciledAt != null && (await prisma.job.count({ where: { shop: TEST_SHOP, status: { in: ["queued", "running"] }, kind: { not: RECONCILE_JOB.name } } })) === 0;
    });

    // THEN each of the 1,000 is at the service once
    const counts = perOrder(orders.map((o) => String(o.id)));
    expect(counts.size).toBe(1_000);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    expect(await prisma.orderRecord.count({ where: { status: "recorded" } })).toBe(1_000);
    const sync = await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(sync.missedOrders).toBe(300);
    // One pass: 1,000 orders in pages of ORDERS_PER_PAGE, each asked for once, none refused (none above Shopify's 1,000 points).
    expect(shopify.callsOf("OrdersPage", "ok")).toHaveLength(1_000 / ORDERS_PER_PAGE);
    expect(shopify.refused).toEqual([]);
    expect(await prisma.job.count({ where: { kind: RECONCILE_JOB.name, status: "done" } })).toBe(1);
    expect(app.exitCode()).toBeNull();
  }, 120_000);
});

describe("backfill in production", () => {
  it("a backfill killed mid-way (SIGKILL) resumes from its last stored page and records each order once", async () => {
    const count = 600;
    const orders = Array.from({ length: count }, (_, i) => referred(6_700_000_000_000 + i));
    const now = Date.now();
    orders.forEach((order, i) => shopify.orders.add(order, { at: new Date(now - 20 * 86_400_000 + i * 60_000) }));
    // Slow enough to be caught mid-way: each page waits for the bucket.
    shopify.setBucket(1_000, 4_000);
    let app = await startApp({ shortLease: true });

    expect(await startBackfill(prisma, TEST_SHOP, 30, new Date())).toEqual({ ok: true });
    await until("a third of the backfill stored", async () => ((await prisma.orderSync.findUnique({ where: { shop: TEST_SHOP } }))?.backfillSeen ?? 0) >= count / 3);
    await app.kill();
    const atKill = await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(atKill.backfillStatus).toBe("running");
    expect(atKill.backfillSeen).toBeLessThan(count);

    app = await startApp({ shortLease: true });
    await until("the backfill done and every job finished", async () => {
      const sync = await prisma.orderSync.findUnique({ where: { shop: TEST_SHOP } });
      return sync?.backfillStatus === "done" && (await prisma.job.count({ where: { shop: TEST_SHOP, status: { in: ["queued", "running"] }, kind: { not: RECONCILE_JOB.name } } })) === 0;
    }, 90_000);

    const counts = perOrder(orders.map((o) => String(o.id)));
    expect(counts.size).toBe(count);
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    const sync = await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(sync).toMatchObject({ backfillTotal: count, backfillSeen: count, backfillAdded: count });
    // Resumed, not restarted: the pages after the kill began from the stored cursor
    // (a reconciliation pass queued at boot reads its own first page, by updated_at).
    const backfillPages = shopify.callsOf("OrdersPage", "ok").filter((c) => String(c.variables.query).startsWith("created_at:"));
    expect(backfillPages.length).toBeGreaterThanOrEqual(count / ORDERS_PER_PAGE);
    const firstPages = backfillPages.filter((c) => c.variables.after === null);
    expect(firstPages).toHaveLength(1);
  }, 150_000);
});
