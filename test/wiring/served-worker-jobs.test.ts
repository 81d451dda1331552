import "../entry/admin/browser-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../app/wiring/db.server";
import { startBulkRun } from "../../app/domains/commissions/commission-bulk.server";
import { saveOffer } from "../../app/domains/offers/offer-page.server";
import { OFFER_DEFAULTS } from "../../app/domains/offers/offer-settings";
import { sandboxAppEnv, startAppServer, type AppServer } from "../entry/admin/app-server";
import { postPixelSignal } from "../entry/storefront/support/requests";
import { shopifyOrder } from "../support/orders";
import { connectShop, sandboxCommissions, useTestSandbox } from "../support/pipeline";
import { ShopifyAdminStandIn } from "../support/shopify-admin-standin";
import { signedWebhook, TEST_SHOP } from "../support/shopify-requests";

// One job of each kind the app queues, run by the built app's own worker (the
// served build's worker thread, WORKER_IN_PROCESS=true), never by the test
// process: a Flow trigger, the friend's offer, the pixel's sweep and a bulk
// decision, each with what it did at the referral service or at Shopify's
// stand-in. The order's job and the privacy purge in the same worker are in
// worker-thread.test.ts, the order sync in served-order-sync.test.ts, the
// service's events in payout-faults.test.ts.

const sandbox = useTestSandbox();
const shopify = new ShopifyAdminStandIn();
let standIn: { origin: string; close(): Promise<void> };
let server: AppServer;

beforeAll(async () => {
  standIn = await shopify.serve();
  server = await startAppServer({ ...sandboxAppEnv(), SHOPIFY_ADMIN_API_ORIGIN: standIn.origin, WORKER_IN_PROCESS: "true" });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await standIn?.close();
});

/** The job of that kind, once the served worker has finished it (done, or given up). */
async function finished(kind: string): Promise<{ status: string; lastError: string | null }> {
  let job: { status: string; lastError: string | null } | null = null;
  await expect
    .poll(
      async () => {
        job = await prisma.job.findFirst({ where: { shop: TEST_SHOP, kind, status: { in: ["done", "failed"] } }, select: { status: true, lastError: true } });
        return job !== null;
      },
      { timeout: 30_000, interval: 100 },
    )
    .toBe(true);
  return job!;
}

describe("each kind of job, run by the served build's worker", () => {
  it("a Flow trigger: the credited order's Referral credited reaches Shopify", async () => {
    await connectShop(sandbox);
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    const id = 5_712_347_889_123_456_001n;
    const body = shopifyOrder({ id, email: "jon@example.com", customerEmail: "jon@example.com", discountCodes: ["ALICE-15"] });
    const answer = await fetch(signedWebhook({ topic: "orders/paid", body, url: `${server.origin}/webhooks/orders/paid` }));
    expect(answer.status).toBe(200);

    expect(await finished("order.record")).toEqual({ status: "done", lastError: null });
    expect(await finished("flow.trigger")).toEqual({ status: "done", lastError: null });
    expect(await sandboxCommissions(sandbox, id.toString())).toHaveLength(1);
    expect(shopify.flow.receivedOf("referral-credited").map((r) => r.payload.order_id)).toEqual([id.toString()]);
  }, 60_000);

  it("the friend's offer: the campaign's discount is made at Shopify", async () => {
    await connectShop(sandbox);
    await saveOffer(prisma, TEST_SHOP, "1001", OFFER_DEFAULTS);

    expect(await finished("offer.sync")).toEqual({ status: "done", lastError: null });
    expect(shopify.refused).toEqual([]);
    expect(shopify.discountTitled("Demo Outfitters referral: ").input).toMatchObject({ title: "Demo Outfitters referral: Friends & Family" });
  }, 60_000);

  it("the pixel: a signal's sweep, due, is run", async () => {
    await connectShop(sandbox);
    const posted = await postPixelSignal(server.origin, { shop: TEST_SHOP, checkoutToken: "c1b2a3d4e5f60718293a4b5c6d7e8f90", orderId: "gid://shopify/OrderIdentity/5712347889123456002", code: "ALICE10", campaign: "" });
    expect(posted.status).toBe(204);
    // The sweep is due at the end of the signal's minute: brought forward, as the worker-thread test does the purge.
    await expect.poll(() => prisma.job.count({ where: { shop: TEST_SHOP, kind: "pixel.sweep", status: "queued" } })).toBe(1);
    await prisma.job.updateMany({ where: { shop: TEST_SHOP, kind: "pixel.sweep", status: "queued" }, data: { runAt: new Date() } });

    expect(await finished("pixel.sweep")).toEqual({ status: "done", lastError: null });
  }, 60_000);

  it("a bulk decision: every pending commission is approved at the service", async () => {
    await connectShop(sandbox);
    const pendingBefore = (await sandboxCommissions(sandbox)).filter((c) => c.state === "pending");
    expect(pendingBefore.length).toBeGreaterThan(0);
    const started = await startBulkRun(prisma, TEST_SHOP, "approve", { status: "pending" });
    expect(started.ok).toBe(true);

    expect(await finished("commissions.bulk-decide")).toEqual({ status: "done", lastError: null });
    expect((await sandboxCommissions(sandbox)).filter((c) => c.state === "pending")).toEqual([]);
    expect(await prisma.commissionBulkRun.findFirstOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ status: "done", succeeded: pendingBefore.length });
  }, 60_000);
});
