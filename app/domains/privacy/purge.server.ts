import type { PrismaClient } from "@prisma/client";
import { enqueueJob } from "../../platform/queue/enqueue.server";
import { FLOW_TRIGGER_JOB } from "../flow-triggers";
import { CANCEL_ORDER_JOB, REFUND_ORDER_JOB } from "../referrals";
import { PRIVACY_PURGE_JOB, PURGE_JOB_SHOP } from "./job-kinds";
import { COUPON_BUYER_MS, DATA_REQUEST_REPORT_MS, FINISHED_JOB_MS, PIXEL_SIGNAL_MS, REFUSED_DELIVERY_MS, SET_ASIDE_DELIVERY_MS, UNREFERRED_ORDER_PERSONAL_DATA_MS } from "./retention.server";

// The retention purge: what retention.server.ts says is kept no longer goes,
// for every shop, once an hour. Each step works in batches: one short
// statement reads a batch's ids, another changes those rows, re-checking its
// condition, so no lock is held for long, and two workers purging at once
// (a slot's job runs once, but a retried one may overlap) change each row at
// most once and the same way.

/** How often the purge runs. */
export const PURGE_INTERVAL_MS = 60 * 60_000;
/** Rows one statement changes. */
export const PURGE_BATCH = 500;
/** Batches of each step in one run: a large backlog is left to the next runs rather than held in one. */
export const PURGE_MAX_BATCHES = 200;

/** What a kept job's payload becomes once it names nobody. */
const EMPTIED_PAYLOAD = "{}";

/**
 * Orders not referred: their decision is final once the guard's window and
 * Shopify's redeliveries are over. An order still waiting for a web pixel
 * signal by then (its wait is 30 minutes) is past any signal's lifetime.
 */
const NOT_REFERRED = ["not_referred", "awaiting_signal"];

/**
 * Finished jobs the purge leaves: a cancellation's or refund's job is how
 * reconciliation knows it has seen that change (an order touched again weeks
 * later is read again), and its payload holds amounts, no person. A Flow
 * trigger's job is how the same event is never sent twice (its key): it is
 * kept, its payload (emails, amounts) emptied.
 */
export const KEPT_JOB_KINDS = [CANCEL_ORDER_JOB.name, REFUND_ORDER_JOB.name, FLOW_TRIGGER_JOB.name];

export interface PurgeCounts {
  /** Orders not referred whose browser IP and held event were cleared. */
  orderRecordsCleared: number;
  pixelSignalsDeleted: number;
  /** Coupon buyers (leaked-code detection) that no window reaches any more, deleted. */
  couponBuyersDeleted: number;
  finishedJobsDeleted: number;
  /** Data requests whose report and requester were deleted. */
  reportsDeleted: number;
  /** Order webhooks set aside (SQLite: planning failed on them alone) that were deleted. */
  setAsideDeliveriesDeleted: number;
  /** Queued order webhooks refused for good (shown on the Overview) that were deleted. */
  refusedDeliveriesDeleted: number;
}

/** A step's batches: `maxBatches` counts down, so a step that goes shop by shop keeps one bound. */
type Budget = { batch: number; maxBatches: number };

async function inBatches<Id>(nextIds: () => Promise<Id[]>, change: (ids: Id[]) => Promise<number>, budget: Budget): Promise<number> {
  let changed = 0;
  while (budget.maxBatches > 0) {
    budget.maxBatches -= 1;
    const ids = await nextIds();
    if (ids.length === 0) break;
    changed += await change(ids);
    if (ids.length < budget.batch) break;
  }
  return changed;
}

/**
 * The shops with finished jobs, one index seek each: the finished jobs are
 * read shop by shop through the (status, shop, runAt) index, as no index on
 * jobs leads with runAt (decision 021).
 */
async function shopsWithFinishedJobs(db: PrismaClient): Promise<string[]> {
  const shops: string[] = [];
  for (;;) {
    const next = await db.job.findFirst({
      where: { status: "done", ...(shops.length > 0 ? { shop: { gt: shops[shops.length - 1]! } } : {}) },
      orderBy: { shop: "asc" },
      select: { shop: true },
    });
    if (!next) return shops;
    shops.push(next.shop);
  }
}

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

/** One purge over every shop, as of `now`. */
export async function purgeExpired(db: PrismaClient, now: Date, options: { batch?: number; maxBatches?: number } = {}): Promise<PurgeCounts> {
  const batch = options.batch ?? PURGE_BATCH;
  const size = (): Budget => ({ batch, maxBatches: options.maxBatches ?? PURGE_MAX_BATCHES });
  const before = (ms: number) => new Date(now.getTime() - ms);

  const orderCutoff = before(UNREFERRED_ORDER_PERSONAL_DATA_MS);
  const unreferredPersonal = {
    status: { in: NOT_REFERRED },
    // Rows stored before placedAt was kept are judged by when they were stored.
    OR: [{ placedAt: { lt: orderCutoff } }, { placedAt: null, createdAt: { lt: orderCutoff } }],
    AND: [{ OR: [{ browserIp: { not: null } }, { heldEvent: { not: null } }] }],
  };
  const orderRecordsCleared = await inBatches(
    async () => ids(await db.orderRecord.findMany({ where: unreferredPersonal, select: { id: true }, take: batch })),
    async (batchIds) => (await db.orderRecord.updateMany({ where: { id: { in: batchIds }, ...unreferredPersonal }, data: { browserIp: null, heldEvent: null } })).count,
    size(),
  );

  const signalCutoff = { createdAt: { lt: before(PIXEL_SIGNAL_MS) } };
  const pixelSignalsDeleted = await inBatches(
    async () => ids(await db.pixelSignal.findMany({ where: signalCutoff, select: { id: true }, take: batch })),
    async (batchIds) => (await db.pixelSignal.deleteMany({ where: { id: { in: batchIds }, ...signalCutoff } })).count,
    size(),
  );

  const couponBuyerExpired = { lastUsedAt: { lt: before(COUPON_BUYER_MS) } };
  const couponBuyersDeleted = await inBatches(
    async () => await db.couponBuyer.findMany({ where: couponBuyerExpired, select: { shop: true, code: true, buyerKey: true }, take: batch }),
    async (keys) => (await db.couponBuyer.deleteMany({ where: { OR: keys, ...couponBuyerExpired } })).count,
    size(),
  );

  // A done job's runAt is when its last attempt became due.
  const shops = await shopsWithFinishedJobs(db);
  const finishedBudget = size();
  let finishedJobsDeleted = 0;
  for (const shop of shops) {
    const finished = { status: "done", shop, runAt: { lt: before(FINISHED_JOB_MS) }, kind: { notIn: KEPT_JOB_KINDS } };
    finishedJobsDeleted += await inBatches(
      async () => ids(await db.job.findMany({ where: finished, select: { id: true }, take: batch })),
      async (batchIds) => (await db.job.deleteMany({ where: { id: { in: batchIds }, ...finished } })).count,
      finishedBudget,
    );
  }

  const triggersBudget = size();
  for (const shop of shops) {
    const sentTriggers = { status: "done", shop, runAt: { lt: before(FINISHED_JOB_MS) }, kind: FLOW_TRIGGER_JOB.name, payload: { not: EMPTIED_PAYLOAD } };
    await inBatches(
      async () => ids(await db.job.findMany({ where: sentTriggers, select: { id: true }, take: batch })),
      async (batchIds) => (await db.job.updateMany({ where: { id: { in: batchIds }, ...sentTriggers }, data: { payload: EMPTIED_PAYLOAD } })).count,
      triggersBudget,
    );
  }

  const reportExpired = {
    completedAt: { lt: before(DATA_REQUEST_REPORT_MS) },
    OR: [{ report: { not: null } }, { email: { not: null } }, { customerId: { not: null } }, { ordersRequested: { not: "[]" } }],
  };
  const reportsDeleted = await inBatches(
    async () => ids(await db.dataRequest.findMany({ where: reportExpired, select: { id: true }, take: batch })),
    async (batchIds) =>
      (
        await db.dataRequest.updateMany({
          where: { id: { in: batchIds }, ...reportExpired },
          data: { status: "expired", report: null, email: null, customerId: null, ordersRequested: "[]", statusDetail: "The report and who asked were deleted 30 days after it was made." },
        })
      ).count,
    size(),
  );

  const setAsideExpired = { failure: { not: null }, receivedAt: { lt: before(SET_ASIDE_DELIVERY_MS) } };
  const setAsideDeliveriesDeleted = await inBatches(
    async () => (await db.pendingDelivery.findMany({ where: setAsideExpired, select: { id: true }, take: batch })).map((row) => row.id),
    async (batchIds) => (await db.pendingDelivery.deleteMany({ where: { id: { in: batchIds }, ...setAsideExpired } })).count,
    size(),
  );

  const refusedExpired = { receivedAt: { lt: before(REFUSED_DELIVERY_MS) } };
  const refusedDeliveriesDeleted = await inBatches(
    async () => (await db.refusedDelivery.findMany({ where: refusedExpired, select: { id: true }, take: batch })).map((row) => row.id),
    async (batchIds) => (await db.refusedDelivery.deleteMany({ where: { id: { in: batchIds }, ...refusedExpired } })).count,
    size(),
  );

  return { orderRecordsCleared, pixelSignalsDeleted, couponBuyersDeleted, finishedJobsDeleted, reportsDeleted, setAsideDeliveriesDeleted, refusedDeliveriesDeleted };
}

/** The next purge, at the start of the next hour; one job per hour however often it is asked for. */
export function schedulePurge(db: PrismaClient, now: Date, intervalMs = PURGE_INTERVAL_MS): Promise<boolean> {
  const slot = Math.floor(now.getTime() / intervalMs) + 1;
  return enqueueJob(db, PRIVACY_PURGE_JOB, { shop: PURGE_JOB_SHOP, subject: `run:${intervalMs}:${slot}`, payload: {}, runAt: new Date(slot * intervalMs) });
}
