import { randomUUID } from "node:crypto";
import type { Job } from "@prisma/client";
import type { DatabaseKind } from "../db/adapter.server";
import type { BackoffPolicy } from "./backoff";
import { claimJobs, claimNextJob, releaseLeases, renewLease } from "./claim.server";
import { DEFAULT_BURST_CONCURRENCY, DEFAULT_LEASE_MS, DEFAULT_MAX_YIELD_MS, DEFAULT_SHOP_CONCURRENCY } from "./defaults";
import type { JobRegistry, QueueContext } from "./registry";
import { runJob, type RunOptions } from "./run-job.server";
import { batchedSettles } from "./settle-batch.server";
import { plainSql } from "../db/sql.server";
import { onJobEnqueued } from "./wake";

/** How often a worker held back by a burst (shouldYield) looks whether it is over. */
const BURST_CHECK_MS = 10;

export interface WorkerOptions {
  /** The database the jobs are in: the claim is one statement in its dialect. */
  database: DatabaseKind;
  workerId?: string;
  /** Jobs run side by side in this process. */
  concurrency?: number;
  /** Jobs of one shop running at once, across every worker. */
  perShop?: number;
  pollIntervalMs?: number;
  /** A job whose worker has not renewed its lease for this long is taken by another worker. */
  leaseMs?: number;
  /** How often a running job's lease is renewed; a third of the lease by default. */
  heartbeatMs?: number;
  backoff?: BackoffPolicy;
  onShopPaused?: RunOptions["onShopPaused"];
  /**
   * True while the process has more urgent work (a burst of order webhooks
   * being answered). The worker then keeps at most `burstConcurrency` jobs
   * running, for at most `maxYieldMs` in a row; after a hold that long it
   * claims freely for as long again, so that a load that never ends still
   * leaves its jobs half the time. Jobs already running go on.
   */
  shouldYield?: () => boolean;
  /** Jobs kept running during a burst (default 4): other shops' orders keep moving, and the acknowledgements keep the CPU. */
  burstConcurrency?: number;
  maxYieldMs?: number;
}

export interface Worker {
  readonly id: string;
  start(): void;
  /**
   * Claims nothing more and waits for the jobs under way, at most
   * `deadlineMs`; the leases of jobs still running then are released, so
   * another worker takes them at once, but for jobs in the middle of an
   * external write (JobMeta.externalWrite): those keep their lease until it
   * runs out, since their write may still land. Resolves with how many were
   * released.
   */
  stop(options?: { deadlineMs?: number }): Promise<number>;
  /** Runs due jobs until none is left (tests and scripts). Returns how many ran. */
  drain(): Promise<number>;
}

/** A worker runs the jobs of the kinds its registry defines, and no others. */
export function createWorker<Ctx extends QueueContext>(ctx: Ctx, registry: JobRegistry<Ctx>, options: WorkerOptions): Worker {
  const id = options.workerId ?? `worker-${process.pid}-${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? 4;
  const perShop = options.perShop ?? DEFAULT_SHOP_CONCURRENCY;
  // Claims wait for a few free slots, so that one round trip takes several jobs.
  const batchMin = Math.max(1, Math.floor(concurrency / 4));
  const inFlight = new Set<Promise<void>>();
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const heartbeatMs = options.heartbeatMs ?? Math.max(10, Math.floor(leaseMs / 3));
  const maxYieldMs = options.maxYieldMs ?? DEFAULT_MAX_YIELD_MS;
  const burstConcurrency = Math.min(concurrency, options.burstConcurrency ?? DEFAULT_BURST_CONCURRENCY);
  const settle = batchedSettles(plainSql(ctx.db));
  let running = false;
  let loops: Promise<void>[] = [];
  const sleepers = new Set<() => void>();
  let unsubscribe: (() => void) | undefined;

  /** Renews a running job's lease until the job ends; a lease found lost is logged, and the job's result will not be stored. */
  function keepLease(jobId: string): () => void {
    const timer = setInterval(() => {
      renewLease(ctx.db, { jobId, workerId: id, leaseMs, now: ctx.now() }).then(
        (held) => {
          if (!held) {
            clearInterval(timer);
            ctx.logger.warn({ jobId, workerId: id }, "lost the lease of a running job; another worker may take it");
          }
        },
        (error) => ctx.logger.warn({ err: error, jobId, workerId: id }, "could not renew a job's lease"),
      );
    }, heartbeatMs);
    return () => clearInterval(timer);
  }

  async function run(job: Job): Promise<void> {
    const release = keepLease(job.id);
    try {
      await runJob(ctx, registry, job, { workerId: id, backoff: options.backoff, onShopPaused: options.onShopPaused, settle });
    } catch (error) {
      ctx.logger.error({ err: error, workerId: id, jobId: job.id }, "worker could not store a job's outcome");
    } finally {
      release();
    }
  }

  async function runOne(): Promise<boolean> {
    const job = await claimNextJob(ctx.db, { database: options.database, workerId: id, leaseMs, now: ctx.now(), perShop });
    if (!job) return false;
    await run(job);
    return true;
  }

  function nap(ms = pollIntervalMs): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });
  }

  /** When the current hold began, while a burst lasts. */
  let holdingSince: number | undefined;
  /** When a hold that reached maxYieldMs lets the worker claim without holding back, until. */
  let claimFreelyUntil = 0;
  /** Whether the worker holds back now: a burst under way, and the hold not yet maxYieldMs long. */
  function holdingBack(): boolean {
    const now = performance.now();
    if (!options.shouldYield || now < claimFreelyUntil || !options.shouldYield()) {
      holdingSince = undefined;
      return false;
    }
    holdingSince ??= now;
    if (now - holdingSince < maxYieldMs) return true;
    claimFreelyUntil = now + maxYieldMs;
    holdingSince = undefined;
    return false;
  }

  /** Claims up to `limit` jobs in one round trip and starts them; how many it took. */
  async function fill(limit: number): Promise<number> {
    let jobs: Job[] = [];
    try {
      jobs = await claimJobs(ctx.db, { database: options.database, workerId: id, leaseMs, now: ctx.now(), limit, perShop });
    } catch (error) {
      ctx.logger.error({ err: error, workerId: id }, "worker could not claim jobs");
    }
    for (const job of jobs) {
      const done: Promise<void> = run(job).finally(() => {
        inFlight.delete(done);
        // A finished job frees a slot and may let the next job of its lane run.
        sleepers.values().next().value?.();
      });
      inFlight.add(done);
    }
    return jobs.length;
  }

  async function pump(): Promise<void> {
    while (running) {
      const held = holdingBack();
      const free = (held ? burstConcurrency : concurrency) - inFlight.size;
      // Outside a burst a claim waits for a few free slots, so that one round trip takes several jobs.
      if (free > 0 && (held || free >= batchMin || inFlight.size === 0)) {
        const taken = await fill(free);
        if (taken === free) continue;
        // Nothing more due: wait for a job to end, a new job, or the poll.
        if (running) await nap();
        continue;
      }
      // Too few slots free: wait for a job to end, a new job, the poll, or (held back, its few slots full) the burst's end.
      if (running) await nap(held ? BURST_CHECK_MS : pollIntervalMs);
    }
    await Promise.all(inFlight);
  }

  return {
    id,
    start() {
      if (running) return;
      running = true;
      unsubscribe = onJobEnqueued(() => sleepers.values().next().value?.());
      loops = [pump()];
      ctx.logger.info({ workerId: id, concurrency, leaseMs }, "worker started");
    },
    async stop({ deadlineMs = Infinity } = {}) {
      running = false;
      unsubscribe?.();
      for (const wake of [...sleepers]) wake();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<false>((resolve) => {
        if (Number.isFinite(deadlineMs)) timer = setTimeout(() => resolve(false), deadlineMs);
      });
      const finished = await Promise.race([Promise.all(loops).then(() => true), deadline]);
      clearTimeout(timer);
      loops = [];
      if (finished) return 0;
      const { released, writing } = await releaseLeases(ctx.db, id);
      ctx.logger.warn({ workerId: id, released, writing }, "stopped with jobs under way; their leases are released, but those of jobs in the middle of an external write");
      return released;
    },
    async drain() {
      let count = 0;
      while (await runOne()) count++;
      return count;
    },
  };
}
