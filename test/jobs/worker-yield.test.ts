import { describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { acknowledging, acknowledgementsInFlight, answeringWebhooks } from "../../app/webhooks/acknowledgements";
import { enqueueJob } from "../../app/queue/enqueue.server";
import { CANCEL_ORDER_JOB } from "../../app/referrals/job-kinds";
import { appWorker } from "../../app/wiring/jobs.server";
import { connectShop, testPipeline, useTestSandbox } from "../support/pipeline";
import { TEST_SHOP } from "../support/shopify-requests";

const sandbox = useTestSandbox();

/** A job that finishes at once when it runs: the cancellation of an order that was not referred. */
async function queueCancellation(orderId: string) {
  await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId, status: "not_referred" } });
  await enqueueJob(prisma, CANCEL_ORDER_JOB, { shop: TEST_SHOP, subject: orderId, payload: { orderId } });
}

async function statusWithin(ms: number): Promise<string | undefined> {
  const deadline = Date.now() + ms;
  let status: string | undefined;
  while (Date.now() < deadline) {
    status = (await prisma.job.findFirst())?.status;
    if (status === "done") return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return status;
}

describe("the worker gives way to webhook acknowledgements", () => {
  it("counts acknowledgements in flight, also when one fails", async () => {
    let seen = -1;
    await acknowledging(async () => {
      seen = acknowledgementsInFlight();
    });
    await expect(acknowledging(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(seen).toBe(1);
    expect(acknowledgementsInFlight()).toBe(0);
  });

  it("counts the process as answering webhooks for a moment after the last one, not only while one is in flight", async () => {
    await acknowledging(async () => undefined);
    const answered = performance.now();
    expect(acknowledgementsInFlight()).toBe(0);
    expect(answeringWebhooks(answered + 10)).toBe(true);
    expect(answeringWebhooks(answered + 1_000)).toBe(false);
  });

  it("holds back while the process is busy and runs the job once it is not", async () => {
    await connectShop(sandbox);
    let busy = true;
    const worker = appWorker(testPipeline().ctx, { shouldYield: () => busy, maxYieldMs: 60_000, pollIntervalMs: 20 });
    worker.start();
    try {
      await queueCancellation("1");
      expect(await statusWithin(300)).toBe("queued");
      busy = false;
      expect(await statusWithin(3_000)).toBe("done");
    } finally {
      await worker.stop();
    }
  });

  it("never waits longer than maxYieldMs in a row, so jobs still run under constant load", async () => {
    await connectShop(sandbox);
    const worker = appWorker(testPipeline().ctx, { shouldYield: () => true, maxYieldMs: 100, pollIntervalMs: 20 });
    worker.start();
    try {
      await queueCancellation("2");
      expect(await statusWithin(3_000)).toBe("done");
    } finally {
      await worker.stop();
    }
  });
});
