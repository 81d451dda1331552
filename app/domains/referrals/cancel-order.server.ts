import { done, type JobOutcome } from "../../platform/queue/outcome";
import type { JobMeta } from "../../platform/queue/registry";
import { neverRecorded, nothingToChange, waitForOrder } from "./order-changes.server";
import { stopJobs } from "../../platform/queue/shop-jobs.server";
import { recordJobKey } from "./job-kinds";
import type { OrderJobContext } from "./order-job-context";
import { AWAITING_SIGNAL, awaitsSignal } from "./order-status.server";
import { findOrderRecord, parseJsonObject, updateOrderRecord, type CampaignResults } from "./order-records.server";
import { needsReview, reviseCommissions, storeReversal } from "./reversal.server";

const CANCELLED_BEFORE_RECORDING = "Order cancelled before it was recorded";

/** An order's cancellation: its recording stops if it was not sent yet, else its commission is denied. */
export async function cancelOrder(ctx: OrderJobContext, shop: string, { orderId }: { orderId: string }, job: JobMeta): Promise<JobOutcome> {
  const record = await findOrderRecord(ctx.db, shop, orderId);
  if (!record) {
    if (await neverRecorded(ctx.db, shop, orderId)) return nothingToChange(ctx, shop, orderId, "cancellation");
    // The cancellation came first: it waits for its order.
    return waitForOrder(job, ctx.now(), "Waiting for the order to arrive") ?? done;
  }
  if (awaitsSignal(record)) {
    // No job to stop (or it has judged already): skipped, unless a signal queued it meanwhile (then it is stopped as queued).
    const skipped = await ctx.db.orderRecord.updateMany({
      where: { shop, orderId, ...AWAITING_SIGNAL },
      data: { status: "skipped", statusReason: CANCELLED_BEFORE_RECORDING, heldEvent: null },
    });
    return skipped.count > 0 ? done : { type: "wait", reason: "The order is being recorded", afterMs: 1_000 };
  }
  if (record.status !== "queued" && record.status !== "failed" && record.status !== "recorded") return done;

  if (record.status === "queued" || record.status === "failed") {
    // Not at the service yet: stop the recording instead of creating and denying.
    const key = recordJobKey(shop, orderId);
    const stopped = await stopJobs(ctx.db, { key }, CANCELLED_BEFORE_RECORDING, ["queued", "failed", "paused"]);
    const stillRunning = await ctx.db.job.count({ where: { key, status: "running" } });
    if (stopped === 0 && stillRunning > 0) return { type: "wait", reason: "The order is being recorded", afterMs: 5_000 };
    if (stopped > 0 || record.status === "failed") {
      await updateOrderRecord(ctx.db, shop, orderId, { status: "skipped", statusReason: CANCELLED_BEFORE_RECORDING });
      return done;
    }
    return { type: "wait", reason: "The order is being recorded", afterMs: 5_000 };
  }

  const connection = await ctx.clientForShop(shop);
  if (!connection.ok) return { type: "pause", reason: connection.reason };
  const results = parseJsonObject<CampaignResults>(record.results);
  const interrupted = await reviseCommissions(connection.client, orderId, results, { status: "denied" }, "denied");
  await updateOrderRecord(ctx.db, shop, orderId, { results: JSON.stringify(results) });
  if (interrupted) return interrupted;

  const review = needsReview(results);
  if (review.length > 0) {
    await updateOrderRecord(ctx.db, shop, orderId, {
      status: "needs_review",
      statusReason: `Order cancelled, but the commission in campaign ${review.join(", ")} was already approved or denied; the service cannot change it. Review it in Commissions.`,
    });
    return done;
  }
  const reversed = "Order cancelled: commission denied";
  await storeReversal(ctx.db, record, { status: "reversed", statusReason: reversed }, { results, reason: reversed });
  return done;
}
