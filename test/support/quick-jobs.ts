import prisma from "../../app/wiring/db.server";
import { enqueueJob } from "../../app/platform/queue/enqueue.server";
import { CANCEL_ORDER_JOB, RECORD_ORDER_JOB } from "../../app/domains/referrals/job-kinds";
import { storeOrderWebhook } from "../../app/wiring/order-intake.server";
import { shopifyOrder } from "./orders";
import { TEST_SHOP } from "./shopify-requests";

// For tests of when a worker takes jobs rather than of what a job does: a
// job that finishes at once when it runs (the cancellation of an order that
// was not referred), and how many order jobs run at once.

/** Queues the job for `orderId`; its id. */
export async function queueCancellation(orderId: string): Promise<string> {
  await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId, status: "not_referred" } });
  await enqueueJob(prisma, CANCEL_ORDER_JOB, { shop: TEST_SHOP, subject: orderId, payload: { orderId } });
  return (await prisma.job.findFirstOrThrow({ where: { kind: CANCEL_ORDER_JOB.name, key: { contains: orderId } }, select: { id: true } })).id;
}

/** Polls until the job is done (its status then), or `ms` has passed (its status at that moment). */
export async function jobStatusWithin(id: string, ms: number): Promise<string | undefined> {
  const deadline = performance.now() + ms;
  let status: string | undefined;
  do {
    status = (await prisma.job.findUnique({ where: { id }, select: { status: true } }))?.status;
    if (status === "done") return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  } while (performance.now() < deadline);
  return status;
}

/** The most order jobs seen running at once within `ms` (polled every 20 ms). */
export async function mostOrderJobsRunningWithin(ms: number): Promise<number> {
  const deadline = performance.now() + ms;
  let most = 0;
  while (performance.now() < deadline) {
    most = Math.max(most, await prisma.job.count({ where: { kind: RECORD_ORDER_JOB.name, status: "running" } }));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return most;
}

/** Stores `count` referred orders paid, ids from `firstId`: a job each that calls the referral service. */
export async function storeReferredOrders(count: number, firstId: number): Promise<void> {
  // All at once, as a burst arrives (the intake batches them): one after another took seconds on a busy machine.
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const order = shopifyOrder({ id: firstId + i, email: `burst-${i}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
      return storeOrderWebhook({ topic: "ORDERS_PAID", shop: TEST_SHOP, payload: order, webhookId: null, triggeredAt: null });
    }),
  );
  // Otherwise the tests that count running jobs would count nothing.
  const outcomes = results.map((result) => result.outcome);
  if (outcomes.some((outcome) => outcome !== "queued")) throw new Error(`not every referred order was queued: ${outcomes.join(", ")}`);
}
