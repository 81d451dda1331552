import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import prisma from "../../../app/wiring/db.server";
import { logger } from "../../../app/platform/logger/logger.server";
import { defineJobKind } from "../../../app/platform/queue/job-kind";
import { createJobRegistry, defineJob, type QueueContext } from "../../../app/platform/queue/registry";
import { createWorker, type WorkerOptions } from "../../../app/platform/queue/worker.server";
import { acknowledging } from "../../../app/entry/webhooks/acknowledgements";
import { startInProcessWorker, stopInProcessWorker } from "../../../app/wiring/in-process-worker.server";
import { appWorker } from "../../../app/wiring/jobs.server";
import { testDatabaseKind } from "../../support/database";
import { jobStatusWithin, mostOrderJobsRunningWithin, queueCancellation, storeReferredOrders } from "../../support/quick-jobs";
import { clearSandboxFaults, connectShop, sandboxFaults, testPipeline, useTestSandbox } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";

// Acknowledgements first: while the process answers a burst of order
// webhooks, a worker keeps only a few jobs running, for a bounded time
// (app/platform/queue/worker.server.ts shouldYield, burstConcurrency); the in-process
// worker's thread learns of the burst from the main thread's count in shared
// memory.

// This file starts the in-process worker itself (the test set-up turns it off), so before the app's modules read the environment.
vi.hoisted(() => {
  process.env.WORKER_IN_PROCESS = "true";
});
const sandbox = useTestSandbox();

/** A job that takes `SLOW_JOB_MS`, counting how many of its kind run at once. */
const SLOW = defineJobKind({ name: "test.slow", payload: z.object({ n: z.number() }) });
const SLOW_JOB_MS = 60;
let runningNow = 0;
let mostAtOnce = 0;
const slowJobs = createJobRegistry<QueueContext>([
  defineJob(SLOW, {
    local: true,
    handle: async () => {
      mostAtOnce = Math.max(mostAtOnce, ++runningNow);
      await new Promise((resolve) => setTimeout(resolve, SLOW_JOB_MS));
      runningNow--;
      return { type: "done" };
    },
  }),
]);

async function queueSlowJobs(count: number, from: number): Promise<void> {
  const runAt = new Date(Date.now() - 1_000);
  await prisma.job.createMany({
    data: Array.from({ length: count }, (_, i) => ({ shop: TEST_SHOP, kind: SLOW.name, key: `${SLOW.name}:${from + i}`, payload: JSON.stringify({ n: from + i }), runAt })),
  });
}

const slowJobsLeft = () => prisma.job.count({ where: { kind: SLOW.name, status: { not: "done" } } });

async function untilDone(ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while ((await slowJobsLeft()) > 0) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

function slowWorker(options: Omit<WorkerOptions, "database">) {
  return createWorker({ db: prisma, logger, now: () => new Date() }, slowJobs, { database: testDatabaseKind(), pollIntervalMs: 20, ...options });
}

describe("a worker that holds back", () => {
  it("with no jobs allowed during a burst, claims nothing while the process says so, and runs the job once it does not", async () => {
    await connectShop(sandbox);
    let busy = true;
    const worker = appWorker(testPipeline().ctx, { shouldYield: () => busy, burstConcurrency: 0, maxYieldMs: 60_000, pollIntervalMs: 20 });
    worker.start();
    try {
      const job = await queueCancellation("5712347889123456001");
      expect(await jobStatusWithin(job, 400)).toBe("queued");
      busy = false;
      expect(await jobStatusWithin(job, 5_000)).toBe("done");
    } finally {
      await worker.stop();
    }
  });

  it("holds back at most maxYieldMs in a row, then claims freely for as long", async () => {
    await connectShop(sandbox);
    const maxYieldMs = 2_000;
    const worker = appWorker(testPipeline().ctx, { shouldYield: () => true, burstConcurrency: 0, maxYieldMs, pollIntervalMs: 20 });
    const started = performance.now();
    worker.start();
    try {
      const first = await queueCancellation("5712347889123456002");
      expect(await jobStatusWithin(first, 10_000)).toBe("done");
      expect(performance.now() - started).toBeGreaterThanOrEqual(maxYieldMs);
      // Within the free spell that follows a full hold, the next job does not wait another maxYieldMs.
      const queuedAt = performance.now();
      const second = await queueCancellation("5712347889123456003");
      expect(await jobStatusWithin(second, maxYieldMs)).toBe("done");
      expect(performance.now() - queuedAt).toBeLessThan(maxYieldMs);
    } finally {
      await worker.stop();
    }
  });

  it("keeps at most burstConcurrency jobs running while the process says so, and goes back to its concurrency once it does not", async () => {
    let busy = true;
    const worker = slowWorker({ concurrency: 8, burstConcurrency: 2, shouldYield: () => busy, maxYieldMs: 60_000 });
    worker.start();
    try {
      mostAtOnce = 0;
      await queueSlowJobs(10, 0);
      // 10 jobs two at a time: five rounds of SLOW_JOB_MS.
      expect(await untilDone(10_000)).toBe(true);
      expect(mostAtOnce).toBe(2);

      busy = false;
      mostAtOnce = 0;
      await queueSlowJobs(16, 100);
      expect(await untilDone(10_000)).toBe(true);
      expect(mostAtOnce).toBeGreaterThan(2);
    } finally {
      await worker.stop();
    }
  });
});

describe("the in-process worker's thread", () => {
  // One thread for these tests: it loads the app's TypeScript through tsx here, which takes a while.
  beforeAll(async () => {
    await connectShop(sandbox);
    startInProcessWorker();
    // The thread is up once it has run a first job.
    const warm = await queueCancellation("5712347889123456004");
    expect(await jobStatusWithin(warm, 45_000)).toBe("done");
  }, 90_000);
  afterAll(() => stopInProcessWorker(5_000));

  it("keeps at most a few jobs running while the main thread answers a burst of order webhooks, and the rest once it is over", async () => {
    await connectShop(sandbox);
    // Each order's recording takes a while at the service, so the jobs running at once can be counted.
    await sandboxFaults(sandbox, { latencyMs: 1_000, operations: ["event/record"] });
    // Eight acknowledgements under way: a burst (threads/webhooks-answering.ts).
    let finish = () => {};
    const answered = new Promise<void>((resolve) => (finish = resolve));
    const burst = Array.from({ length: 8 }, () => acknowledging(() => answered));
    try {
      await storeReferredOrders(12, 5_712_347_889_300);
      const during = await mostOrderJobsRunningWithin(1_500);
      expect(during).toBeGreaterThan(0);
      expect(during).toBeLessThanOrEqual(4); // DEFAULT_BURST_CONCURRENCY
    } finally {
      finish();
      await Promise.all(burst);
    }
    expect(await mostOrderJobsRunningWithin(1_500)).toBeGreaterThan(4);
    await clearSandboxFaults(sandbox);
  });

  it("goes on claiming while fewer webhooks than a burst are answered", async () => {
    await connectShop(sandbox);
    let finish = () => {};
    const answered = new Promise<void>((resolve) => (finish = resolve));
    const under = Array.from({ length: 7 }, () => acknowledging(() => answered));
    try {
      const job = await queueCancellation("5712347889123456006");
      expect(await jobStatusWithin(job, 10_000)).toBe("done");
    } finally {
      finish();
      await Promise.all(under);
    }
  });
});
