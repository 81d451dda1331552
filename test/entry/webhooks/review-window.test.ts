import "../admin/browser-env";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { appWorker } from "../../../app/wiring/jobs.server";
import { listCommissionsPage, parseCommissionQuery } from "../../../app/entry/admin/commissions.server";
import { startAppServer, startTestAppServer, sandboxAppEnv, type AppServer } from "../admin/app-server";
import { connectShop, sandboxCommissions, sandboxFaults, sandboxRequests, shopServiceClient, testPipeline, useTestSandbox, type TestPipeline } from "../../support/pipeline";
import { shopifyOrder, shopifyRefund, type OrderOptions } from "../../support/orders";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";

// The review window, end to end: real-shaped orders/paid webhooks (Admin API
// 2026-10) through the built app under server.mjs, the jobs run by the
// worker's code on a clock the test moves, and what the sandbox service
// holds. Campaign 1001 does not approve its commissions itself: they start
// pending.

const sandbox = useTestSandbox();
let server: AppServer;
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);
afterAll(() => server?.stop());

const NOOR: OrderOptions = { email: "noor@example.com", customerEmail: "noor@example.com", customerId: 7390001122334400001n, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] };

async function deliver(origin: string, topic: string, body: unknown): Promise<void> {
  const response = await fetch(signedWebhook({ topic, body, url: `${origin}/webhooks/${topic}` }));
  await response.text();
  expect(response.status).toBe(200);
}

const states = async (orderId: string) => (await sandboxCommissions(sandbox, orderId)).map((c) => c.state);
const approvals = async () => ((await sandboxRequests(sandbox, "commission/update")) as { status: number }[]).length;
const approvedTriggers = () => prisma.job.findMany({ where: { kind: "flow.trigger", key: { contains: "commission-approved" } } });
const recordOf = (orderId: string) => prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId } });

async function shopWithWindow(days: number) {
  await connectShop(sandbox);
  await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { reviewWindowDays: days, flowTriggers: true } });
}

describe("the review window", () => {
  it("approves a pending commission once, N days after its order, through the merchant's decision (its Flow trigger included); Commissions says when", async () => {
    // GIVEN a 30-day window and a referred order recorded pending
    await shopWithWindow(30);
    const pipeline = testPipeline();
    const orderId = "5550000000000000001";
    await deliver(server.origin, "orders/paid", shopifyOrder({ ...NOOR, id: BigInt(orderId) }));
    await pipeline.drain();
    expect(await states(orderId)).toEqual(["pending"]);

    // THEN the Commissions page says when it approves itself
    const page = await listCommissionsPage({ db: prisma }, TEST_SHOP, await shopServiceClient(), parseCommissionQuery(new URLSearchParams("status=pending")));
    const row = page.rows.find((r) => r.transactionId === orderId)!;
    const placedAt = (await recordOf(orderId)).placedAt!;
    expect(row.approvesOn).toBe(new Date(placedAt.getTime() + 30 * DAY).toISOString());

    // WHEN 29 days pass: still pending
    pipeline.advance(29 * DAY);
    await pipeline.drain();
    expect(await states(orderId)).toEqual(["pending"]);
    expect(await approvals()).toBe(0);

    // WHEN the window ends: approved at the service, in the record, with one Flow trigger by the app
    pipeline.advance(1 * DAY + 60_000);
    await pipeline.drain();
    expect(await states(orderId)).toEqual(["approved"]);
    expect(await recordOf(orderId)).toMatchObject({ commissionState: "approved" });
    const triggers = await approvedTriggers();
    expect(triggers).toHaveLength(1);
    expect(JSON.parse(triggers[0]!.payload)).toMatchObject({ handle: "commission-approved", payload: { "Approved by": "app" } });

    // AND nothing more happens later
    pipeline.advance(60 * DAY);
    await pipeline.drain();
    expect(await approvals()).toBe(1);
    expect(await approvedTriggers()).toHaveLength(1);
    const after = await listCommissionsPage({ db: prisma }, TEST_SHOP, await shopServiceClient(), parseCommissionQuery(new URLSearchParams("status=approved")));
    expect(after.rows.find((r) => r.transactionId === orderId)).toMatchObject({ approvesOn: null });
  });

  it("a refund inside the window prevents the approval", async () => {
    await shopWithWindow(30);
    const pipeline = testPipeline();
    const orderId = "5550000000000000002";
    await deliver(server.origin, "orders/paid", shopifyOrder({ ...NOOR, id: BigInt(orderId) }));
    await pipeline.drain();
    pipeline.advance(10 * DAY);
    await deliver(server.origin, "refunds/create", shopifyRefund(BigInt(orderId), ["30.00"], 890088186047800002n));
    await pipeline.drain();
    const revenueUpdates = await approvals();

    pipeline.advance(25 * DAY);
    await pipeline.drain();
    expect(await states(orderId)).toEqual(["pending"]);
    // The refund's revenue update only: no approval was asked.
    expect(await approvals()).toBe(revenueUpdates);
    expect(await approvedTriggers()).toHaveLength(0);
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order.review-approve" } })).toMatchObject({ status: "done" });
  });

  it("is off by default: nothing approves itself", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = "5550000000000000003";
    await deliver(server.origin, "orders/paid", shopifyOrder({ ...NOOR, id: BigInt(orderId) }));
    await pipeline.drain();
    pipeline.advance(400 * DAY);
    await pipeline.drain();
    expect(await states(orderId)).toEqual(["pending"]);
    expect(await prisma.job.count({ where: { kind: "order.review-approve" } })).toBe(0);
  });
});

describe("the review window's approval, exactly once", () => {
  const LEASE_MS = 2_000;
  let app: AppServer | undefined;
  // The served app's worker sends the Flow triggers to Shopify: the Admin API stand-in on this machine.
  let standIn: { origin: string; close(): Promise<void> };
  beforeAll(async () => {
    standIn = await new ShopifyAdminStandIn().serve();
  });
  afterAll(() => standIn?.close());
  afterEach(async () => {
    await app?.stop();
    app = undefined;
  });

  /** The next worker, after the dead one's lease and the retry's backoff have run out. */
  async function nextWorkerRuns(pipeline: TestPipeline) {
    for (let round = 0; round < 4; round++) {
      pipeline.advance(LEASE_MS + 10 * 60_000);
      await pipeline.drain();
    }
  }

  /** An order placed 31 days ago reaches an app with a 30-day window and its worker: its approval is due as it is recorded. */
  async function servedOrderDueAtOnce(orderId: string) {
    await shopWithWindow(30);
    app = await startAppServer({ ...sandboxAppEnv(), WORKER_IN_PROCESS: "true", JOB_LEASE_MS: String(LEASE_MS), SHUTDOWN_DEADLINE_MS: "300", SHOPIFY_ADMIN_API_ORIGIN: standIn.origin });
    await deliver(app.origin, "orders/paid", shopifyOrder({ ...NOOR, id: BigInt(orderId), createdAt: new Date(Date.now() - 31 * DAY) }));
  }

  const until = async (what: () => Promise<boolean>, label: string) => {
    for (let i = 0; i < 200; i++) {
      if (await what()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${label}`);
  };

  it("SIGKILL after the service approved but before its answer came: the next worker finds it approved and stores it once", async () => {
    const orderId = "5550000000000000011";
    // The service carries the approval out and the answer is cut, for the served app's call.
    await sandboxFaults(sandbox, { cutAfterActRate: 1, operations: ["commission/update"] });
    await servedOrderDueAtOnce(orderId);
    await until(async () => (await states(orderId))[0] === "approved", "the served app's approval at the service");

    await app!.kill();
    await sandboxFaults(sandbox, {});
    await nextWorkerRuns(testPipeline());

    expect(await states(orderId)).toEqual(["approved"]);
    expect(await recordOf(orderId)).toMatchObject({ commissionState: "approved" });
    expect(await approvedTriggers()).toHaveLength(1);
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order.review-approve" } })).toMatchObject({ status: "done" });
  }, 90_000);

  it("SIGKILL while the call is held at the service: the next worker approves once", async () => {
    const orderId = "5550000000000000012";
    await servedOrderDueAtOnce(orderId);
    await until(async () => (await states(orderId)).length === 1, "the order's recording");
    const release = sandbox.holdCalls();
    await until(async () => (await prisma.job.count({ where: { kind: "order.review-approve", status: "running" } })) === 1, "the approval under way");
    await new Promise((resolve) => setTimeout(resolve, 200));

    await app!.kill();
    release();
    await nextWorkerRuns(testPipeline());

    expect(await states(orderId)).toEqual(["approved"]);
    expect(await recordOf(orderId)).toMatchObject({ commissionState: "approved" });
    expect(await approvedTriggers()).toHaveLength(1);
  }, 90_000);

  it("two workers draining together approve once", async () => {
    await shopWithWindow(30);
    const pipeline = testPipeline();
    const ids = ["5550000000000000021", "5550000000000000022", "5550000000000000023"];
    for (const [n, id] of ids.entries()) {
      await deliver(server.origin, "orders/paid", shopifyOrder({ ...NOOR, email: `buyer${n}@example.com`, customerEmail: `buyer${n}@example.com`, customerId: 7390001122334400100n + BigInt(n), id: BigInt(id) }));
    }
    await pipeline.drain();
    pipeline.advance(31 * DAY);
    const second = appWorker(pipeline.ctx, { workerId: "second-worker" });
    await Promise.all([pipeline.drain(), second.drain()]);

    for (const id of ids) expect(await states(id)).toEqual(["approved"]);
    expect(await approvals()).toBe(ids.length);
    expect(await approvedTriggers()).toHaveLength(ids.length);
  }, 60_000);
});
