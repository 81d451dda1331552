import type { PrismaClient } from "@prisma/client";
import { jobKey } from "../../platform/queue/job-row";
import { done, type JobOutcome } from "../../platform/queue/outcome";
import type { JobMeta, QueueContext } from "../../platform/queue/registry";
import { requeueJob } from "../../platform/queue/shop-jobs.server";
import { notifyJobEnqueued } from "../../platform/queue/wake";
import { CANCEL_ORDER_JOB, recordJobKey, REFUND_ORDER_JOB, refundSubject } from "./job-kinds";
import { parseJsonObject } from "./order-records.server";
import { pipelineSettingsSchema } from "./pipeline-settings";

// A cancellation or a refund may come before its order: Shopify retries a
// failed delivery with its original payload for hours, so a refund can
// arrive before the orders/paid it follows. It waits for the order's record
// instead of finishing with nothing to change (unless the order can never
// be recorded: neverRecorded), and reconciliation puts back in the queue one
// that finished without its effect.

/**
 * How long a cancellation or refund waits for its order to be recorded:
 * Shopify retries a webhook for hours and reconciliation finds a missed
 * order within minutes; a failed order may be retried by the merchant.
 */
export const ORDER_WAIT_MS = 24 * 60 * 60_000;

/**
 * Waits for the order (spending no attempt), looking again as long as it has
 * waited, from 30 s to an hour, behind the order's recording in their lane;
 * null after a day.
 */
export function waitForOrder(job: JobMeta, now: Date, reason: string): JobOutcome | null {
  const waited = now.getTime() - job.createdAt.getTime();
  if (waited > ORDER_WAIT_MS) return null;
  return { type: "wait", reason, afterMs: Math.min(60 * 60_000, Math.max(30_000, waited)), behindLane: true };
}

/**
 * Shopify's financial statuses of a cancelled order that was never paid and
 * can no longer be: its payment voided by the cancellation, or its
 * authorization expired. A paid order cancelled is paid, refunded or
 * partly refunded; a pending or authorized one might still be paid.
 */
const NEVER_PAID = new Set(["voided", "expired"]);

/**
 * Whether an order with no record will never have one, so that its
 * cancellation and refunds have nothing to wait for: the shop records orders
 * on orders/paid, and the order's cancellation said it was never paid (see
 * NEVER_PAID), so Shopify never triggered its orders/paid, and
 * reconciliation, which hands on orders/paid only for a paid order, never
 * will; and no recording of it is stored. The cancellation alone can tell:
 * a refund carries no payment status.
 */
export async function neverRecorded(db: PrismaClient, shop: string, orderId: string): Promise<boolean> {
  const [cancellation, settings, recordings] = await Promise.all([
    db.job.findUnique({ where: { key: jobKey(shop, CANCEL_ORDER_JOB.name, orderId) }, select: { payload: true } }),
    db.shop.findUnique({ where: { shop }, select: { trigger: true } }),
    db.job.count({ where: { key: recordJobKey(shop, orderId) } }),
  ]);
  if (!cancellation || recordings > 0) return false;
  if (pipelineSettingsSchema.shape.trigger.parse(settings?.trigger) !== "orders_paid") return false;
  const payload = CANCEL_ORDER_JOB.payload.safeParse(parseJsonObject(cancellation.payload));
  return payload.success && NEVER_PAID.has(payload.data.financialStatus ?? "");
}

/** A cancellation or refund of an order that will never be recorded ends at once: nothing to change. */
export function nothingToChange(ctx: QueueContext, shop: string, orderId: string, change: "cancellation" | "refund"): JobOutcome {
  ctx.logger.info({ shop, orderId }, `${change}: nothing to change, the order was never recorded (cancelled unpaid in a shop that records paid orders)`);
  return done;
}

/** What Shopify's order says of its changes, as reconciliation read it. */
export interface OrderChanges {
  orderId: string;
  refundIds: string[];
  cancelled: boolean;
}

/**
 * The cancellations and refunds of recorded orders whose jobs finished
 * without changing the commission (they ran before this repair existed, or
 * before the order could be recorded) go back in the queue; each still
 * applies once (a refund's id is kept on the record). How many went back.
 */
export async function repairOrderChanges(db: PrismaClient, shop: string, orders: OrderChanges[], now: Date): Promise<number> {
  const changed = orders.filter((order) => order.cancelled || order.refundIds.length > 0);
  if (changed.length === 0) return 0;
  const records = await db.orderRecord.findMany({
    where: { shop, status: "recorded", orderId: { in: changed.map((order) => order.orderId) } },
    select: { orderId: true, refunds: true },
  });
  let requeued = 0;
  for (const record of records) {
    const order = changed.find((o) => o.orderId === record.orderId)!;
    const applied = parseJsonObject<Record<string, string>>(record.refunds);
    const keys = order.refundIds.filter((id) => applied[id] === undefined).map((id) => jobKey(shop, REFUND_ORDER_JOB.name, refundSubject(order.orderId, id)));
    if (order.cancelled) keys.push(jobKey(shop, CANCEL_ORDER_JOB.name, order.orderId));
    for (const key of keys) if (await requeueJob(db, key, now, ["done"])) requeued += 1;
  }
  if (requeued > 0) notifyJobEnqueued();
  return requeued;
}
