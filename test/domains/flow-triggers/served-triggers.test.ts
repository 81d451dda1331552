import "../../entry/admin/browser-env";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { FLOW_PAYLOAD_LIMIT_BYTES } from "../../../app/domains/flow-triggers/triggers";
import { applyCommissionEvent } from "../../../app/domains/service-events/commission-events.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { appJobContext, appWorker } from "../../../app/wiring/jobs.server";
import { CodeDirectory } from "../../../app/domains/referrals/code-directory.server";
import { startTestAppServer, type AppServer } from "../../entry/admin/app-server";
import { clearSandboxFaults, connectShop, sandboxCommissions, sandboxFaults, shopServiceAccess, useTestSandbox } from "../../support/pipeline";
import { shopifyOrder, type OrderOptions } from "../../support/orders";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { deliveriesPlanned } from "../../support/kept-deliveries";

// The Flow triggers an order sends, end to end: a real-shaped orders/paid
// through the built app under server.mjs, the jobs run by the worker's code
// against the sandbox service, and flowTriggerReceive answered by the Admin
// stand-in (Shopify's 2026-10 schema, the app's flow_trigger TOMLs).

const sandbox = useTestSandbox();
let server: AppServer;
let shopify: ShopifyAdminStandIn;

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);

afterAll(() => server?.stop());

beforeEach(() => {
  shopify = new ShopifyAdminStandIn();
});

/** The worker's code over the test database, with a clock the test moves and Shopify's stand-in. */
function pipeline() {
  let offset = 0;
  const ctx = appJobContext({
    logger: createLogger({ level: "silent" }),
    clientForShop: (shop) => shopServiceAccess(shop, 2_000),
    now: () => new Date(Date.now() + offset),
    codes: new CodeDirectory(),
    adminForShop: shopify.access(),
  });
  const worker = appWorker(ctx, { workerId: "flow-test-worker" });
  return {
    /** Runs every job due, then moves the clock past any retry's backoff and runs again, until nothing is left. */
    async settle() {
      for (let round = 0; round < 6; round += 1) {
        await worker.drain();
        offset += 30 * 60_000;
      }
    },
    drain: () => worker.drain(),
  };
}

async function deliver(body: unknown, webhookId?: string, topic = "orders/paid"): Promise<void> {
  const response = await fetch(signedWebhook({ topic, body, webhookId, url: `${server.origin}/webhooks/${topic}` }));
  await response.text();
  expect(response.status).toBe(200);
  await deliveriesPlanned();
}

const ORDER: OrderOptions & { id: bigint } = {
  id: 5712347889123456789n,
  customerId: 7390123456789012345n,
  email: "jon@example.com",
  customerEmail: "jon@example.com",
  discountCodes: ["ALICE-15"],
};

const flowJobs = () => prisma.job.findMany({ where: { shop: TEST_SHOP, kind: "flow.trigger" } });

describe("Referral credited, through the served build", () => {
  it("is sent once for a referred order delivered twice, whose recording was retried after a failure", async () => {
    // GIVEN a shop with Flow on, and a service that fails the first recording
    await connectShop(sandbox);
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    const run = pipeline();
    await sandboxFaults(sandbox, { failNext: 1, operations: ["event/record"] });
    const body = shopifyOrder(ORDER);

    // WHEN Shopify delivers orders/paid, the first attempt fails, and Shopify delivers it again (a new delivery id)
    await deliver(body, "b7f5c0c2-0d7e-4a38-9d54-000000000001");
    await run.drain();
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId: ORDER.id.toString() } })).toMatchObject({ status: "queued" });
    expect(await flowJobs()).toHaveLength(0);
    await clearSandboxFaults(sandbox);
    await deliver(body, "b7f5c0c2-0d7e-4a38-9d54-000000000002");
    await run.settle();
    // and once more after everything ran
    await deliver(body, "b7f5c0c2-0d7e-4a38-9d54-000000000003");
    await run.settle();

    // THEN the service has one commission and Flow heard of it once
    expect(await sandboxCommissions(sandbox, ORDER.id.toString())).toHaveLength(1);
    const received = shopify.flow.receivedOf("referral-credited");
    console.log("stand-in received referral-credited:", JSON.stringify(received));
    expect(received).toHaveLength(1);
    expect(received[0]!.payload).toEqual({
      // Above 2^53: exact, as digits.
      order_id: "5712347889123456789",
      customer_id: "7390123456789012345",
      "Referrer email": "alice@example.com",
      "Referral code": "ALICE-15",
      Campaign: "1001",
      Revenue: expect.any(Number),
      Commission: expect.any(Number),
    });
    expect(Buffer.byteLength(JSON.stringify(received[0]!.payload))).toBeLessThan(FLOW_PAYLOAD_LIMIT_BYTES);
    expect(shopify.callsOf("ReferralBridgeFlowTrigger", "invalid")).toEqual([]);
    expect(await flowJobs()).toMatchObject([{ status: "done" }]);
  });

  it("is sent once when the service recorded the order but its answer was lost (the retry finds it recorded)", async () => {
    await connectShop(sandbox);
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    const run = pipeline();
    await sandboxFaults(sandbox, { cutAfterActRate: 1, operations: ["event/record"] });
    await deliver(shopifyOrder({ ...ORDER, id: 5712347889123456792n }));
    await run.drain();
    await clearSandboxFaults(sandbox);
    await run.settle();
    expect(await sandboxCommissions(sandbox, "5712347889123456792")).toHaveLength(1);
    const received = shopify.flow.receivedOf("referral-credited");
    expect(received).toHaveLength(1);
    // The lost answer named the referrer; the service's "already recorded" does not.
    expect(received[0]!.payload).toMatchObject({ order_id: "5712347889123456792", "Referral code": "ALICE-15", Campaign: "1001", "Referrer email": "" });
  });

  it("is not sent, and no job is made, when the shop has Flow off", async () => {
    await connectShop(sandbox);
    const run = pipeline();
    await deliver(shopifyOrder({ ...ORDER, id: 5712347889123456790n }));
    await run.settle();
    expect(await sandboxCommissions(sandbox, "5712347889123456790")).toHaveLength(1);
    expect(shopify.flow.received).toEqual([]);
    expect(await flowJobs()).toEqual([]);
  });
});

describe("Referral blocked, through the served build", () => {
  it("is sent with the rule when the service refuses a self-referral", async () => {
    await connectShop(sandbox);
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    const run = pipeline();
    // Ids of today's shops' size: numbers, as Flow's reference fields take them.
    await deliver(shopifyOrder({ id: 6412347889123n, customerId: 7012345678901n, email: "alice@example.com", customerEmail: "alice@example.com", discountCodes: ["ALICE-15"] }));
    await run.settle();
    const received = shopify.flow.receivedOf("referral-blocked");
    console.log("stand-in received referral-blocked:", JSON.stringify(received));
    expect(received).toEqual([
      {
        handle: "referral-blocked",
        payload: {
          order_id: 6412347889123,
          customer_id: 7012345678901,
          Rule: "service",
          Reason: expect.stringMatching(/^Self-referral: the referral service refused it/),
          "Referral code": "ALICE-15",
        },
      },
    ]);
    expect(shopify.flow.receivedOf("referral-credited")).toEqual([]);
  });
});

describe("Referral blocked by the guard, through the served build", () => {
  it("names the guard's rule", async () => {
    await connectShop(sandbox);
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    await fetch(`${sandbox.baseUrl}/api/v2/${sandbox.username}/${sandbox.token}/json/ambassador/get/?email=jon.snow@gmail.com&auto_create=1`);
    const ledger = (await (await fetch(`${sandbox.baseUrl}/_sandbox/ledger`)).json()) as { ambassadors: { email: string; short_codes: Record<string, string> }[] };
    const code = ledger.ambassadors.find((a) => a.email === "jon.snow@gmail.com")!.short_codes["1001"]!;
    const run = pipeline();
    await deliver(
      shopifyOrder({ id: 6412347889125n, email: "JonSnow+deals@gmail.com", customerEmail: "JonSnow+deals@gmail.com", noteAttributes: [{ name: "_referral_code", value: code }] }),
    );
    await run.settle();
    expect(shopify.flow.receivedOf("referral-blocked")).toEqual([
      {
        handle: "referral-blocked",
        payload: expect.objectContaining({ order_id: 6412347889125, Rule: "self_email", Reason: expect.stringMatching(/^Blocked: Buyer's email is the referrer's/), "Referral code": code }),
      },
    ]);
  });
});

describe("Commission approved as the order is recorded, through the served build", () => {
  it("is sent once by the app when the shop approves commissions as it records them, and the service's webhook of it adds nothing", async () => {
    await connectShop(sandbox, { approval: "approved" });
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    const run = pipeline();
    await deliver(shopifyOrder({ ...ORDER, id: 6412347889126n, customerId: 7012345678904n }));
    await run.settle();
    expect((await sandboxCommissions(sandbox, "6412347889126"))[0]).toMatchObject({ state: "approved" });
    // The service's commission-created of that commission, as its webhook job would apply it.
    await applyCommissionEvent(prisma, TEST_SHOP, {
      contact: { email: "alice@example.com" },
      campaign: { id: 1001 },
      commission: { id: 99, status: "approved", amount: 9, revenue: 90, transaction_id: "6412347889126" },
    });
    await run.settle();
    const received = shopify.flow.receivedOf("commission-approved");
    console.log("stand-in received commission-approved:", JSON.stringify(received));
    expect(received).toEqual([
      { handle: "commission-approved", payload: { order_id: 6412347889126, "Referrer email": "alice@example.com", Campaign: "1001", "Approved by": "app" } },
    ]);
  });
});

describe("Commission denied, through the served build", () => {
  it("is sent with the reason when a referred order is cancelled, once however often the cancellation is delivered", async () => {
    await connectShop(sandbox);
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    const run = pipeline();
    const order = shopifyOrder({ ...ORDER, id: 6412347889124n, customerId: 7012345678903n });
    await deliver(order);
    await run.settle();
    const cancelled = { ...order, cancelled_at: new Date().toISOString(), cancel_reason: "customer" };
    await deliver(cancelled, undefined, "orders/cancelled");
    await deliver(cancelled, undefined, "orders/cancelled");
    await run.settle();
    expect((await sandboxCommissions(sandbox, "6412347889124"))[0]).toMatchObject({ state: "denied" });
    const received = shopify.flow.receivedOf("commission-denied");
    console.log("stand-in received commission-denied:", JSON.stringify(received));
    expect(received).toEqual([
      {
        handle: "commission-denied",
        payload: { order_id: 6412347889124, "Referrer email": "alice@example.com", Campaign: "1001", "Denied by": "app", Reason: "Order cancelled: commission denied" },
      },
    ]);
    expect(shopify.flow.receivedOf("referral-credited")).toHaveLength(1);
  });
});
