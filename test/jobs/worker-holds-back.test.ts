import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { acknowledging } from "../../app/webhooks/acknowledgements";
import { startInProcessWorker, stopInProcessWorker } from "../../app/wiring/in-process-worker.server";
import { appWorker } from "../../app/wiring/jobs.server";
import { jobStatusWithin, queueCancellation } from "../support/quick-jobs";
import { connectShop, testPipeline, useTestSandbox } from "../support/pipeline";

// Acknowledgements first: a worker claims nothing while the process answers a
// burst of order webhooks, for a bounded time (app/queue/worker.server.ts
// shouldYield); the in-process worker's thread learns of the burst from the
// main thread's count in shared memory.

// This file starts the in-process worker itself (the test set-up turns it off), so before the app's modules read the environment.
vi.hoisted(() => {
  process.env.WORKER_IN_PROCESS = "true";
});
const sandbox = useTestSandbox();

describe("a worker that holds back", () => {
  it("claims nothing while the process says so, and runs the job once it does not", async () => {
    await connectShop(sandbox);
    let busy = true;
    const worker = appWorker(testPipeline().ctx, { shouldYield: () => busy, maxYieldMs: 60_000, pollIntervalMs: 20 });
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
    const worker = appWorker(testPipeline().ctx, { shouldYield: () => true, maxYieldMs, pollIntervalMs: 20 });
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

  it("claims nothing while the main thread answers a burst of order webhooks", async () => {
    await connectShop(sandbox);
    // Eight acknowledgements under way: a burst (threads/webhooks-answering.ts).
    let finish = () => {};
    const answered = new Promise<void>((resolve) => (finish = resolve));
    const burst = Array.from({ length: 8 }, () => acknowledging(() => answered));
    const job = await queueCancellation("5712347889123456005");
    // A job queued with no burst runs in well under a second here; the hold lasts up to 2 s (maxYieldMs).
    expect(await jobStatusWithin(job, 1_500)).toBe("queued");
    finish();
    await Promise.all(burst);
    expect(await jobStatusWithin(job, 10_000)).toBe("done");
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
