import type { OrderRecord, Prisma, PrismaClient } from "@prisma/client";
import { decide } from "../commissions";
import { insertJob } from "../../platform/queue/enqueue.server";
import { ANY_STATUS, requeueJob, stopJobs } from "../../platform/queue/shop-jobs.server";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import { jobsOfOrders, RECORD_ORDER_JOB, recordJobKey, storedEventSchema } from "./job-kinds";
import { parseJsonObject, type CampaignResults, type OrderStatus } from "./order-records.server";
import { needsReview } from "./reversal.server";

// The moves of an order record's status that someone other than its own
// jobs asks for: the merchant on the activity page, a web pixel signal, and
// the shop's pixel sweep when an order's wait for its signal is over.
// The order's jobs move it as they settle (record-order, cancel-order,
// refund-order with reversal.server.ts). Each move is conditional on the
// status it moves from, so two requests at once move it once.

export const SKIPPED_BY_MERCHANT = "Skipped by the merchant";
export const RETRY_REQUESTED = "Retry requested by the merchant";
const REVIEW_RESOLVED = "Commission denied at the referral service (checked again by the merchant)";

type Moved<Why extends string> = { ok: true } | { ok: false; why: Why };

/** failed → queued: the order's recording job is due now with a fresh set of attempts. */
export async function resendOrder(
  db: PrismaClient,
  record: Pick<OrderRecord, "shop" | "orderId" | "status">,
  now: Date,
): Promise<Moved<"not_failed" | "running" | "not_stored">> {
  const { shop, orderId } = record;
  if (record.status !== "failed") return { ok: false, why: "not_failed" };
  const key = recordJobKey(shop, orderId);
  const requeued = await requeueJob(db, key, now, ["failed", "done", "queued", "paused"]);
  if (!requeued) {
    const running = await db.job.count({ where: { shop, key, status: "running" } });
    return { ok: false, why: running > 0 ? "running" : "not_stored" };
  }
  await db.orderRecord.updateMany({
    where: { shop, orderId, status: "failed" },
    data: { status: "queued", statusReason: RETRY_REQUESTED, attempts: 0 },
  });
  notifyJobEnqueued();
  return { ok: true };
}

const SKIPPABLE: readonly OrderStatus[] = ["failed", "needs_review"];

/** failed or needs_review → skipped, with the order's jobs: the merchant decided it is not sent or reviewed. */
export async function skipOrder(db: PrismaClient, record: Pick<OrderRecord, "shop" | "orderId" | "status">): Promise<Moved<"not_skippable" | "running">> {
  const { shop, orderId } = record;
  if (!SKIPPABLE.includes(record.status as OrderStatus)) return { ok: false, why: "not_skippable" };
  const jobs = jobsOfOrders(shop, [orderId]);
  const running = await db.job.count({ where: { ...jobs, status: "running" } });
  if (running > 0) return { ok: false, why: "running" };
  await db.$transaction(async (tx) => {
    await stopJobs(tx, jobs, SKIPPED_BY_MERCHANT, ["queued", "failed", "paused"]);
    await tx.orderRecord.updateMany({ where: { shop, orderId, status: record.status }, data: { status: "skipped", statusReason: SKIPPED_BY_MERCHANT } });
  });
  return { ok: true };
}

/**
 * needs_review → reversed, once the caller has read that every commission
 * the order needed review for is denied at the service. Each campaign's
 * denial is recorded through decide with the move: the merchant's at the
 * service, and the app's from the cancellation or refund, which waited for
 * this. False when the order no longer needed review.
 */
export async function resolveReview(db: PrismaClient, record: Pick<OrderRecord, "shop" | "orderId" | "results">): Promise<boolean> {
  const { shop, orderId } = record;
  const results = parseJsonObject<CampaignResults>(record.results);
  const reviewed = needsReview(results);
  for (const uid of reviewed) results[uid] = { ...results[uid]!, reversal: "denied" };
  return db.$transaction(async (tx) => {
    const resolved = await tx.orderRecord.updateMany({
      where: { shop, orderId, status: "needs_review" },
      data: { status: "reversed", statusReason: REVIEW_RESOLVED, results: JSON.stringify(results) },
    });
    if (resolved.count === 0) return false;
    for (const [campaignUid, result] of Object.entries(results)) {
      if (result.reversal !== "denied") continue;
      const byMerchant = reviewed.includes(campaignUid);
      await decide(
        { db: tx },
        {
          shop,
          service: "reported",
          state: "denied",
          by: byMerchant ? "merchant" : "app",
          reason: byMerchant ? "Denied at the referral service after the order needed review" : "The order was cancelled or refunded",
          commission: { orderId, campaignUid, referrerEmail: result.referrer },
        },
      );
    }
    return true;
  });
}

/** What reopenForSignal reads of the record. */
export interface RecordForSignal {
  orderId: string;
  status: string;
  /** When the order was placed (older rows: when the app stored it). */
  placedAt: Date | null;
  createdAt: Date;
  heldEvent: string | null;
  results: string | null;
  explanation: string | null;
}

/**
 * An order waiting for its web pixel signal: awaiting_signal, or, as the
 * release before it wrote one, judged not referred at intake with its event
 * held (never judged by a job, so no explanation).
 */
const WAITING: Prisma.OrderRecordWhereInput[] = [{ status: "awaiting_signal" }, { status: "not_referred", heldEvent: { not: null }, explanation: null }];
export const AWAITING_SIGNAL: Prisma.OrderRecordWhereInput = { OR: WAITING };

export const awaitsSignal = (record: Pick<RecordForSignal, "status" | "heldEvent" | "explanation">) =>
  record.status === "awaiting_signal" || (record.status === "not_referred" && record.heldEvent !== null && record.explanation === null);

export const SIGNAL_REOPENED = "The web pixel sent a referral code for this order: it is being judged";
export const NO_SIGNAL_CAME = "Not referred: no web pixel signal came within 30 minutes of the order";

/**
 * awaiting_signal → queued: an order waiting for its web pixel signal goes
 * in the queue, for its job to judge with the signal's code: the job it had
 * runs again, or one is made from the event kept with the record. False when
 * it no longer waits, or when nothing is left to send it with. (A record an
 * earlier release judged not referred at intake, its event held, waits too.)
 */
export async function reopenForSignal(db: PrismaClient, shop: string, record: RecordForSignal, now: Date): Promise<boolean> {
  const { orderId } = record;
  const key = recordJobKey(shop, orderId);
  const reopened = await db.$transaction(async (tx) => {
    const job = await tx.job.findUnique({ where: { key }, select: { id: true } });
    const held = record.heldEvent ? storedEventSchema.safeParse(JSON.parse(record.heldEvent)) : null;
    if (!job && !held?.success) return false;
    // Campaigns settled as not referred are asked again; any other result stands.
    const results = parseJsonObject<CampaignResults>(record.results);
    for (const [uid, result] of Object.entries(results)) if (result.state === "not_referred") delete results[uid];
    const flipped = await tx.orderRecord.updateMany({
      where: { shop, orderId, OR: WAITING },
      data: { status: "queued", statusReason: SIGNAL_REOPENED, results: JSON.stringify(results), heldEvent: null },
    });
    if (flipped.count === 0) return false;
    if (job) await requeueJob(tx, key, now, ANY_STATUS);
    else await insertJob(tx, RECORD_ORDER_JOB, { shop, subject: orderId, payload: { orderId, event: held!.data! }, triggeredAt: now, runAt: now });
    return true;
  });
  if (reopened) notifyJobEnqueued();
  return reopened;
}

/** awaiting_signal → not_referred: no signal came within the window, so the orders are final; how many moved. */
export async function endSignalWait(db: PrismaClient, shop: string, orderIds: readonly string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const { count } = await db.orderRecord.updateMany({
    where: { shop, orderId: { in: [...orderIds] }, OR: WAITING },
    data: { status: "not_referred", statusReason: NO_SIGNAL_CAME, heldEvent: null },
  });
  return count;
}
