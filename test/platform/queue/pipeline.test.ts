import { describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { testDatabaseKind } from "../../support/database";
import { claimNextJob } from "../../../app/platform/queue/claim.server";
import { runJob } from "../../../app/platform/queue/run-job.server";
import { resumeShopJobs } from "../../../app/platform/queue/shop-jobs.server";
import { APP_JOBS } from "../../../app/wiring/jobs.server";
import { storeOrderWebhook } from "../../../app/wiring/order-intake.server";
import { shopifyOrder, shopifyRefund, type OrderOptions } from "../../support/orders";
import {
  clearSandboxFaults,
  connectShop,
  rotateSandboxToken,
  sandboxCommissions,
  sandboxFaults,
  sandboxRequests,
  testPipeline,
  useTestSandbox,
} from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { cancelOrder } from "../../../app/domains/referrals/cancel-order.server";
import { applyCommissionEvent } from "../../../app/domains/service-events/commission-events.server";
import { TEST_SHOP } from "../../support/shopify-requests";

const sandbox = useTestSandbox();


let nextOrder = 9_100_000;
async function receive(topic: string, payload: unknown) {
  return storeOrderWebhook({ topic, shop: TEST_SHOP, payload, webhookId: null, triggeredAt: null });
}
async function receiveOrder(options: OrderOptions = {}) {
  const order = shopifyOrder({ id: nextOrder++, ...options });
  await receive("ORDERS_PAID", order);
  return String(order.id);
}
const record = (orderId: string) => prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId } });
const byLink = { noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] };

describe("recording orders", () => {
  it("records a referred order once, with the order id as transaction_uid and the commission from the revenue", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await receiveOrder({ ...byLink, subtotal: "90.00" });

    expect(await pipeline.drain()).toBe(1);

    expect(await record(orderId)).toMatchObject({ status: "recorded", attempts: 0, lastError: null });
    const commissions = await sandboxCommissions(sandbox, orderId);
    expect(commissions).toHaveLength(1);
    expect(commissions[0]).toMatchObject({ campaign_uid: "1001", revenue_amount: "90.00", commission_amount: "9.00", state: "pending" });
    expect(commissions[0]!.affiliate_email).toBe("alice@example.com");
  });

  it("records a job the intake stored before it kept every signal: its one code in its parameters", async () => {
    // GIVEN a job as the previous intake wrote it: the link code in params.shortCode with its source, no signals
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await receiveOrder({ ...byLink, discountCodes: [] });
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "order.record" } });
    const { event } = JSON.parse(job.payload) as { event: Record<string, unknown> & { params: Record<string, unknown> } };
    const legacy = { ...event, signals: undefined, codeSource: "cart_attribute", params: { ...event.params, shortCode: "ALICE10" } };
    await prisma.job.update({ where: { id: job.id }, data: { payload: JSON.stringify({ orderId, event: legacy }) } });

    // WHEN it runs
    expect(await pipeline.drain()).toBe(1);

    // THEN it is credited by that code, as before
    expect(await record(orderId)).toMatchObject({ status: "recorded", shortCode: "ALICE10" });
    expect((await sandboxCommissions(sandbox, orderId)).map((c) => c.affiliate_email)).toEqual(["alice@example.com"]);
  });

  it("records a coupon-code order in each tracked campaign with event/record", async () => {
    await connectShop(sandbox, { campaignUids: "1001,1002" });
    const pipeline = testPipeline();
    const orderId = await receiveOrder({ discountCodes: ["ALICE-15"] });
    await pipeline.drain();
    expect((await record(orderId)).status).toBe("recorded");
    expect((await sandboxCommissions(sandbox, orderId)).map((c) => c.campaign_uid).sort()).toEqual(["1001", "1002"]);
  });

  it("records a link order in several campaigns with one event/multi_record and keeps each campaign's result", async () => {
    await connectShop(sandbox, { campaignUids: "1001,1005" });
    const pipeline = testPipeline();
    const orderId = await receiveOrder(byLink);
    await pipeline.drain();
    const row = await record(orderId);
    expect(row.status).toBe("failed");
    expect(row.lastError).toMatch(/Campaign 1005: .*campaign_uid/);
    const results = JSON.parse(row.results!);
    expect(results["1001"]).toMatchObject({ state: "recorded", referrer: "alice@example.com" });
    expect(results["1005"].state).toBe("failed");
    expect(await sandboxRequests(sandbox, "event/multi_record")).toHaveLength(1);
  });

  it("retries through 5xx answers, dropped connections and timeouts, and counts the order exactly once", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline({ timeoutMs: 300 });
    const orderId = await receiveOrder(byLink);

    await sandboxFaults(sandbox, { failNext: 1, operations: ["event/record"] });
    await pipeline.drain();
    expect(await record(orderId)).toMatchObject({ status: "queued", attempts: 1, lastError: expect.stringMatching(/service error/) });

    await sandboxFaults(sandbox, { dropNext: 1, operations: ["event/record"] });
    pipeline.advance(10 * 60_000);
    await pipeline.drain();
    expect(await record(orderId)).toMatchObject({ status: "queued", attempts: 2, lastError: expect.stringMatching(/network/) });

    // The service records the event but answers too late: the retry meets a duplicate, which counts as recorded.
    await sandboxFaults(sandbox, { latencyMs: 600, operations: ["event/record"] });
    pipeline.advance(10 * 60_000);
    await pipeline.drain();
    expect((await record(orderId)).lastError).toMatch(/timed out/);
    await clearSandboxFaults(sandbox);
    await new Promise((resolve) => setTimeout(resolve, 400));

    pipeline.advance(30 * 60_000);
    await pipeline.drain();
    expect((await record(orderId)).status).toBe("recorded");
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ status: "done", attempts: 4 });
  });

  it("waits out a 429 and retries", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await receiveOrder(byLink);
    await sandboxFaults(sandbox, { rateLimitNext: 1 });
    await pipeline.drain();
    expect((await record(orderId)).lastError).toMatch(/rate limited/);
    pipeline.advance(60 * 60_000);
    await pipeline.drain();
    expect((await record(orderId)).status).toBe("recorded");
  });

  it("holds the shop's other calls for as long as a 429's Retry-After says, and records them after", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const first = await receiveOrder(byLink);
    const second = await receiveOrder({ ...byLink, email: "li@example.com", customerEmail: "li@example.com" });
    await sandboxFaults(sandbox, { rateLimitNext: 1 });
    const before = Date.now();
    await pipeline.drain();
    // The 429 (Retry-After: 1) came on the first call: the second order was not sent into it.
    expect((await record(first)).lastError).toMatch(/rate limited/);
    expect((await record(second)).status).toBe("queued");
    const held = await prisma.job.findFirstOrThrow({ where: { key: { endsWith: `:order.record:${second}` } } });
    expect(held).toMatchObject({ status: "queued", attempts: 0 });
    expect(held.runAt.getTime()).toBeGreaterThanOrEqual(before + 1_000);
    pipeline.advance(2 * 60_000);
    await pipeline.drain();
    expect([(await record(first)).status, (await record(second)).status]).toEqual(["recorded", "recorded"]);
  });

  it("stops an order the service rejects for a reason the merchant must fix, with the service's own words", async () => {
    await connectShop(sandbox, { campaignUids: "1005" });
    const pipeline = testPipeline();
    const orderId = await receiveOrder(byLink);
    await pipeline.drain();
    const row = await record(orderId);
    expect(row.status).toBe("failed");
    expect(row.lastError).toMatch(/^Campaign 1005: The campaign_uid 1005 has expired/);
    expect((await prisma.job.findFirstOrThrow()).status).toBe("failed");
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(0);
  });

  it("gives up after the last attempt and shows the last reason", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await receiveOrder(byLink);
    await sandboxFaults(sandbox, { failNext: 100, operations: ["event/record"] });
    for (let i = 0; i < 20; i++) {
      await pipeline.drain();
      pipeline.advance(5 * 60 * 60_000);
    }
    expect(await record(orderId)).toMatchObject({ status: "failed", attempts: 14, lastError: expect.stringMatching(/Gave up after 14 attempts/) });
  });

  it("pauses the shop on refused credentials without spending attempts, and resumes with new ones", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const first = await receiveOrder(byLink);
    const second = await receiveOrder(byLink);
    await rotateSandboxToken(sandbox, "rotated-token");

    await pipeline.drain();
    const shop = await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(shop).toMatchObject({ connectionStatus: "broken", connectionError: expect.stringMatching(/refused the shop's credentials/) });
    const jobs = await prisma.job.findMany();
    expect(jobs.map((j) => [j.status, j.attempts])).toEqual([["paused", 0], ["paused", 0]]);
    pipeline.advance(24 * 60 * 60_000);
    expect(await pipeline.drain()).toBe(0);

    await connectShop(sandbox, { token: "rotated-token" });
    expect(await resumeShopJobs(prisma, TEST_SHOP)).toBe(2);
    await pipeline.drain();
    expect((await record(first)).status).toBe("recorded");
    expect((await record(second)).status).toBe("recorded");
  });

  it("holds orders that arrive before the shop is connected, and sends them once it is", async () => {
    await installShop();
    const pipeline = testPipeline();
    const orderId = await receiveOrder(byLink);
    await pipeline.drain();
    expect((await prisma.job.findFirstOrThrow()).status).toBe("paused");

    await connectShop(sandbox);
    await resumeShopJobs(prisma, TEST_SHOP);
    await pipeline.drain();
    expect((await record(orderId)).status).toBe("recorded");
  });

  it("with all orders in scope, has a customer nobody referred wait for a pixel signal and records a repeat customer's order", async () => {
    await connectShop(sandbox, { scope: "all_orders" });
    const pipeline = testPipeline();
    const stranger = await receiveOrder({ email: "stranger@example.com", customerEmail: "stranger@example.com" });
    const firstOrder = await receiveOrder({ ...byLink, email: "repeat@example.com", customerEmail: "repeat@example.com" });
    await pipeline.drain();
    const repeatOrder = await receiveOrder({ email: "repeat@example.com", customerEmail: "repeat@example.com", subtotal: "40.00" });
    await pipeline.drain();

    // Not referred so far, and no web pixel signal weighed: it waits for one
    expect(await record(stranger)).toMatchObject({ status: "awaiting_signal", statusReason: expect.stringMatching(/pixel's signal \(Not referred: no referral code/) });
    expect((await record(firstOrder)).status).toBe("recorded");
    expect((await record(repeatOrder)).status).toBe("recorded");
    expect((await sandboxCommissions(sandbox, repeatOrder))[0]).toMatchObject({ commission_amount: "2.00" });
  });
});

describe("crash recovery", () => {
  it("gives a job whose worker died to another worker after the lease, and sends it once", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await receiveOrder(byLink);

    const taken = await claimNextJob(prisma, { database: testDatabaseKind(), workerId: "crashed", leaseMs: 60_000, now: pipeline.ctx.now() });
    expect(taken?.status).toBe("running");
    expect(await pipeline.drain()).toBe(0);

    pipeline.advance(61_000);
    expect(await pipeline.drain()).toBe(1);
    expect((await record(orderId)).status).toBe("recorded");

    // The crashed worker wakes up late: its result no longer applies, nothing is sent twice.
    await runJob(pipeline.ctx, APP_JOBS, taken!, { workerId: "crashed" });
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
    expect((await prisma.job.findFirstOrThrow()).status).toBe("done");
  });

  it("never lets two workers take the same job", async () => {
    await connectShop(sandbox);
    await receiveOrder(byLink);
    const now = new Date();
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) => claimNextJob(prisma, { database: testDatabaseKind(), workerId: `w${i}`, leaseMs: 60_000, now })),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
});

describe("reversals", () => {
  async function recordedOrder(options: OrderOptions = {}, settings: Parameters<typeof connectShop>[1] = {}) {
    await connectShop(sandbox, settings);
    const pipeline = testPipeline();
    const orderId = await receiveOrder({ ...byLink, ...options });
    await pipeline.drain();
    expect((await record(orderId)).status).toBe("recorded");
    return { pipeline, orderId };
  }

  it("denies the commission of a cancelled order", async () => {
    const { pipeline, orderId } = await recordedOrder();
    await receive("ORDERS_CANCELLED", { id: Number(orderId) });
    await pipeline.drain();
    expect(await record(orderId)).toMatchObject({ status: "reversed", commissionState: "denied" });
    expect((await sandboxCommissions(sandbox, orderId))[0]!.state).toBe("denied");
  });

  it("marks a cancelled order whose commission was already approved for review", async () => {
    const { pipeline, orderId } = await recordedOrder({}, { approval: "approved" });
    await receive("ORDERS_CANCELLED", { id: Number(orderId) });
    await pipeline.drain();
    const row = await record(orderId);
    expect(row.status).toBe("needs_review");
    expect(row.statusReason).toMatch(/already approved or denied/);
    expect(JSON.parse(row.results!)["1001"].detail).toBe("You can change state of pending commission only.");
    expect((await sandboxCommissions(sandbox, orderId))[0]!.state).toBe("approved");
  });

  it("keeps an approval the service reported while a cancellation was denying the commission", async () => {
    const { pipeline, orderId } = await recordedOrder();
    // GIVEN the service's event approving the commission is stored while the cancellation's call is under way
    const ctx = {
      ...pipeline.ctx,
      clientForShop: async (shop: string) => {
        const connection = await pipeline.ctx.clientForShop(shop);
        if (!connection.ok) return connection;
        const client = new Proxy(connection.client, {
          get(target, key) {
            const value = Reflect.get(target, key) as unknown;
            if (typeof value !== "function") return value;
            if (key !== "updateCommission") return value.bind(target);
            return async (...args: unknown[]) => {
              const answer = await value.apply(target, args);
              const event = { commission: { id: "c-1", status: "approved", transaction_id: orderId } };
              expect(await applyCommissionEvent(prisma, shop, event)).toMatchObject({ state: "processed" });
              return answer;
            };
          },
        });
        return { ...connection, client };
      },
    };

    // WHEN the cancellation stores what it did
    const job = { id: "cancel-1", createdAt: new Date(), attempts: 1, externalWrite: <T>(write: () => Promise<T>) => write() };
    expect(await cancelOrder(ctx, TEST_SHOP, { orderId }, job)).toEqual({ type: "done" });

    // THEN the record says the cancellation denied it, and the commission's state is the newer report's
    expect(await record(orderId)).toMatchObject({ status: "reversed", commissionState: "approved" });
  });

  it("stops an order cancelled before it was recorded, without calling the service", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await receiveOrder(byLink);
    await receive("ORDERS_CANCELLED", { id: Number(orderId) });
    // Shopify triggered the cancellation first, so its job runs first: the recording is stopped.
    const cancel = await prisma.job.findFirstOrThrow({ where: { kind: "order.cancel" } });
    await prisma.job.update({ where: { id: cancel.id }, data: { runAt: new Date(0), laneAt: new Date(0) } });
    await pipeline.drain();
    expect(await record(orderId)).toMatchObject({ status: "skipped", statusReason: "Order cancelled before it was recorded" });
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(0);
  });

  it("reduces the revenue on a partial refund and denies on the rest", async () => {
    const { pipeline, orderId } = await recordedOrder({ subtotal: "90.00" });
    await receive("REFUNDS_CREATE", shopifyRefund(Number(orderId), ["30.00"]));
    await pipeline.drain();
    expect(await record(orderId)).toMatchObject({ status: "recorded", statusReason: "Partly refunded: revenue reduced to 60.00" });
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ revenue_amount: "60.00", commission_amount: "6.00", state: "pending" });

    await receive("REFUNDS_CREATE", shopifyRefund(Number(orderId), ["60.00"]));
    await pipeline.drain();
    expect(await record(orderId)).toMatchObject({ status: "reversed", commissionState: "denied" });
    expect((await sandboxCommissions(sandbox, orderId))[0]!.state).toBe("denied");
  });

  it("denies on a full refund and marks a refund after approval for review", async () => {
    const full = await recordedOrder({ subtotal: "90.00" });
    await receive("REFUNDS_CREATE", shopifyRefund(Number(full.orderId), ["90.00"]));
    await full.pipeline.drain();
    expect((await record(full.orderId)).status).toBe("reversed");

    const approved = await recordedOrder({ subtotal: "50.00" }, { approval: "approved" });
    await receive("REFUNDS_CREATE", shopifyRefund(Number(approved.orderId), ["10.00"]));
    await approved.pipeline.drain();
    expect(await record(approved.orderId)).toMatchObject({ status: "needs_review", statusReason: expect.stringMatching(/Refund of 10.00/) });
  });

  it("waits with a refund until the order is recorded", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await receiveOrder({ ...byLink, subtotal: "90.00" });
    await receive("REFUNDS_CREATE", shopifyRefund(Number(orderId), ["30.00"]));
    const refund = await prisma.job.findFirstOrThrow({ where: { kind: "order.refund" } });
    await prisma.job.update({ where: { id: refund.id }, data: { runAt: new Date(0) } });
    await pipeline.drain();
    pipeline.advance(60_000);
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ revenue_amount: "60.00" });
    expect((await prisma.job.findFirstOrThrow({ where: { kind: "order.refund" } })).attempts).toBe(1);
  });
});
