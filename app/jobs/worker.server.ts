import { randomUUID } from "node:crypto";
import type { BackoffPolicy } from "./backoff";
import { claimNextJob } from "./claim.server";
import type { JobContext } from "./context";
import { runJob } from "./run-job.server";
import { onJobEnqueued } from "./wake";

export interface WorkerOptions {
  workerId?: string;
  /** Jobs run side by side in this process. */
  concurrency?: number;
  pollIntervalMs?: number;
  /** A job whose worker is silent this long is taken by another worker. */
  leaseMs?: number;
  backoff?: BackoffPolicy;
  /** True while the process has more urgent work (answering webhooks); the worker then waits, at most `maxYieldMs` in a row. */
  shouldYield?: () => boolean;
  maxYieldMs?: number;
}

export interface Worker {
  readonly id: string;
  start(): void;
  stop(): Promise<void>;
  /** Runs due jobs until none is left (tests and scripts). Returns how many ran. */
  drain(): Promise<number>;
}

export function createWorker(ctx: JobContext, options: WorkerOptions = {}): Worker {
  const id = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? 4;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const leaseMs = options.leaseMs ?? 120_000;
  const maxYieldMs = options.maxYieldMs ?? 2_000;
  let running = false;
  let loops: Promise<void>[] = [];
  const sleepers = new Set<() => void>();
  let unsubscribe: (() => void) | undefined;

  async function runOne(): Promise<boolean> {
    const job = await claimNextJob(ctx.db, { workerId: id, leaseMs, now: ctx.now() });
    if (!job) return false;
    await runJob(ctx, job, { workerId: id, backoff: options.backoff });
    return true;
  }

  function nap(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, pollIntervalMs);
      function done() {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });
  }

  /**
   * Waits while shouldYield says so, but never longer than maxYieldMs. The
   * loops share one wait (one timer, however many loops).
   */
  let yielding: Promise<void> | undefined;
  function giveWay(): Promise<void> {
    if (!options.shouldYield?.()) return Promise.resolve();
    yielding ??= (async () => {
      const since = Date.now();
      while (running && options.shouldYield?.() && Date.now() - since < maxYieldMs) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      yielding = undefined;
    })();
    return yielding;
  }

  async function loop(): Promise<void> {
    while (running) {
      await giveWay();
      let worked = false;
      try {
        worked = await runOne();
      } catch (error) {
        ctx.logger.error({ err: error, workerId: id }, "worker could not claim or run a job");
      }
      if (!worked && running) await nap();
    }
  }

  return {
    id,
    start() {
      if (running) return;
      running = true;
      unsubscribe = onJobEnqueued(() => sleepers.values().next().value?.());
      loops = Array.from({ length: concurrency }, () => loop());
      ctx.logger.info({ workerId: id, concurrency }, "worker started");
    },
    async stop() {
      running = false;
      unsubscribe?.();
      for (const wake of [...sleepers]) wake();
      await Promise.all(loops);
      loops = [];
    },
    async drain() {
      let count = 0;
      while (await runOne()) count++;
      return count;
    },
  };
}
