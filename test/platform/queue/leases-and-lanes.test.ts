import { describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { testDatabaseKind } from "../../support/database";
import { APP_JOBS, appWorker } from "../../../app/wiring/jobs.server";
import { claimNextJob } from "../../../app/platform/queue/claim.server";
import { runJob } from "../../../app/platform/queue/run-job.server";
import { storeOrderWebhook } from "../../../app/wiring/order-intake.server";
import { shopifyOrder, shopifyRefund } from "../../support/orders";
import { connectShop, sandboxCommissions, sandboxFaults, sandboxRequests, testPipeline, useTestSandbox } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";

// Leases are short and renewed while a job runs; jobs of one order run one
// at a time, in the order Shopify triggered them.

const sandbox = useTestSandbox();

let nextOrder = 9_400_000;
const byLink = { noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] };
const at = (seconds: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, seconds));

function receive(topic: string, payload: unknown, triggeredAt: Date | null = null) {
  return storeOrderWebhook({ topic, shop: TEST_SHOP, payload, webhookId: null, triggeredAt });
}

async function receiveOrder(subtotal = "90.00", triggeredAt: Date | null = null) {
  const order = shopifyOrder({ id: nextOrder++, subtotal, ...byLink });
  await receive("ORDERS_PAID", order, triggeredAt);
  return order.id;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("leases", () => {
  it("renews the lease of a job whose service call outlasts it, so no other worker takes the job", async () => {
    await connectShop(sandbox);
    const { ctx } = testPipeline({ timeoutMs: 5_000 });
    const orderId = await receiveOrder();
    await sandboxFaults(sandbox, { latencyMs: 2_500, operations: ["event/record"] });

    // A lease ten heartbeats long: a process starved of the CPU for most of a second (a busy machine) still renews it in time.
    const slow = appWorker(ctx, { workerId: "slow", leaseMs: 1_000, heartbeatMs: 100 });
    const running = slow.drain();
    // GIVEN the call is under way for more than two lease lengths
    const rivalClaims: unknown[] = [];
    for (let i = 0; i < 20; i++) {
      await sleep(110);
      rivalClaims.push(await claimNextJob(prisma, { database: testDatabaseKind(), workerId: "rival", leaseMs: 1_000, now: new Date() }));
    }
    // THEN nobody else took it, and it was sent once
    expect(await running).toBe(1);
    expect(rivalClaims.filter(Boolean)).toEqual([]);
    expect(await sandboxRequests(sandbox, "event/record")).toHaveLength(1);
    expect(await sandboxCommissions(sandbox, String(orderId))).toHaveLength(1);
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ status: "done", lockedBy: null });
  });

  it("lets another worker take a job whose lease was lost during a long call, and keeps only that worker's result", async () => {
    await connectShop(sandbox);
    const { ctx } = testPipeline({ timeoutMs: 5_000 });
    const orderId = await receiveOrder();
    await sandboxFaults(sandbox, { latencyMs: 800, operations: ["event/record"] });

    // GIVEN a worker that stalls: it never renews its 150 ms lease while its call takes 800 ms
    const stalled = appWorker(ctx, { workerId: "stalled", leaseMs: 150, heartbeatMs: 60_000 });
    const stalledRun = stalled.drain();
    await sleep(300);
    // WHEN another worker finds the lease expired
    const taken = await claimNextJob(prisma, { database: testDatabaseKind(), workerId: "rescuer", leaseMs: 10_000, now: new Date() });
    expect(taken).toMatchObject({ lockedBy: "rescuer", attempts: 2 });
    await runJob(ctx, APP_JOBS, taken!, { workerId: "rescuer" });
    await stalledRun;

    // THEN the service counts the order once (the second call is a known transaction), and the job is done by the rescuer
    expect(await sandboxCommissions(sandbox, String(orderId))).toHaveLength(1);
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ status: "done", lockedBy: null });
    expect(await prisma.orderRecord.findFirstOrThrow()).toMatchObject({ status: "recorded" });
  });

  it("gives back the jobs still running when a worker stops at its deadline", async () => {
    await connectShop(sandbox);
    const { ctx } = testPipeline({ timeoutMs: 5_000 });
    await receiveOrder();
    await sandboxFaults(sandbox, { latencyMs: 1_500, operations: ["event/record"] });
    const worker = appWorker(ctx, { workerId: "stopping", leaseMs: 10_000, pollIntervalMs: 20 });
    worker.start();
    for (let i = 0; i < 50 && (await prisma.job.count({ where: { status: "running" } })) === 0; i++) await sleep(20);

    expect(await worker.stop({ deadlineMs: 100 })).toBe(1);
    // Due again at once, for any worker, with the interrupted attempt not counted.
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ status: "queued", lockedBy: null, leaseUntil: null, attempts: 0 });
    expect(await claimNextJob(prisma, { database: testDatabaseKind(), workerId: "next", leaseMs: 10_000, now: new Date() })).toMatchObject({ lockedBy: "next" });
  });
});

describe("one order at a time", () => {
  it("runs an order's jobs one after another in the order Shopify triggered them, whatever order they arrived in", async () => {
    await connectShop(sandbox);
    const orderId = await receiveOrder("90.00", at(0));
    const otherOrder = await receiveOrder("50.00", at(1));
    // Delivered out of order: the second refund first, then the cancellation, then the first refund.
    await receive("REFUNDS_CREATE", shopifyRefund(orderId, ["20.00"], 9_500_002), at(20));
    await receive("ORDERS_CANCELLED", { id: orderId }, at(30));
    await receive("REFUNDS_CREATE", shopifyRefund(orderId, ["10.00"], 9_500_001), at(10));

    const order = String(orderId);
    const ran: string[] = [];
    const now = new Date();
    for (let round = 0; round < 6; round++) {
      // Eight workers claim at once: one job of the order at most, besides the other order's.
      const claims = (await Promise.all(Array.from({ length: 8 }, (_, i) => claimNextJob(prisma, { database: testDatabaseKind(), workerId: `w${round}-${i}`, leaseMs: 60_000, now })))).filter(
        (job) => job !== null,
      );
      const ofOrder = claims.filter((job) => JSON.parse(job.payload).orderId === order);
      expect(ofOrder.length).toBeLessThanOrEqual(1);
      for (const job of claims) {
        if (JSON.parse(job.payload).orderId === order) ran.push(job.key.split(":").slice(1).join(":"));
        await prisma.job.update({ where: { id: job.id }, data: { status: "done", lockedBy: null, leaseUntil: null } });
      }
    }
    expect(ran).toEqual([
      `order.record:${order}`,
      `order.refund:${order}:9500001`,
      `order.refund:${order}:9500002`,
      `order.cancel:${order}`,
    ]);
    expect(await prisma.job.count({ where: { status: { not: "done" } } })).toBe(0);
    expect(otherOrder).not.toBe(orderId);
  });

  it("holds an order's later jobs while an earlier one waits for its retry", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await receiveOrder("90.00", at(0));
    await receive("REFUNDS_CREATE", shopifyRefund(orderId, ["30.00"]), at(5));
    await sandboxFaults(sandbox, { failNext: 1, operations: ["event/record"] });

    // The recording fails once and waits for its retry; the refund must not overtake it.
    await pipeline.drain();
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order.refund" } })).toMatchObject({ status: "queued", attempts: 0 });
    pipeline.advance(10 * 60_000);
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, String(orderId)))[0]).toMatchObject({ revenue_amount: "60.00" });
  });

  it("never lets two jobs of one lane run, even when claims race past the ordering check", async () => {
    await connectShop(sandbox);
    const orderId = await receiveOrder("90.00", at(0));
    await receive("ORDERS_CANCELLED", { id: orderId }, at(1));
    const [first, second] = await prisma.job.findMany({ orderBy: { laneAt: "asc" } });
    await prisma.job.update({ where: { id: first!.id }, data: { status: "running", lockedBy: "a", leaseUntil: new Date(Date.now() + 60_000) } });
    // Straight at the table, as a claim that checked the lane a moment before would write:
    await expect(prisma.job.update({ where: { id: second!.id }, data: { status: "running", lockedBy: "b" } })).rejects.toThrow();
    expect(await prisma.job.count({ where: { status: "running" } })).toBe(1);
    expect(second!.lane).toBe(`${TEST_SHOP}:order:${orderId}`);
  });
});
